import { type ActionFunctionArgs, redirect } from "@remix-run/node";
import { safeRedirect } from "~/modules/auth/guards.server";
import { cookies } from "~/modules/http/request/cookies.server";
import { isLanguage, pathAfterLanguageChange } from "~/modules/i18n/languages";
import { badRequest } from "~/modules/http/answers/request.server";
import { readSubmission } from "~/modules/http/forms/submission.server";
import { languageChoiceSchema } from "~/modules/i18n/forms";

export async function loader() {
  return redirect("/");
}

/** The language picker's form target: remembers the choice and returns to the page. */
export async function action({ request, context }: ActionFunctionArgs) {
  const submission = await readSubmission(request, context, languageChoiceSchema);
  const form = submission.status === "success" ? submission.value : {};
  const language = form.lng;
  if (!isLanguage(language)) throw await badRequest(request, context);
  const back = new URL(safeRedirect(form.redirectTo, "/"), "http://local");
  const target = pathAfterLanguageChange(back.pathname, language) + back.search;
  return redirect(target, { headers: { "Set-Cookie": await cookies.language().serialize(language) } });
}
