import { type ActionFunctionArgs, redirect } from "@remix-run/node";
import { cookies } from "~/modules/http/request/cookies.server";
import { isLanguage, pathAfterLanguageChange } from "~/modules/i18n/languages";
import { badRequest } from "~/modules/http/answers/request.server";
import { readSubmission } from "~/modules/http/forms/submission.server";
import { languageChoiceSchema } from "~/modules/i18n/forms";
import { redirectTarget } from "~/modules/http/request/redirect-target.server";

export async function loader() {
  return redirect("/");
}

/** The language picker's form target: remembers the choice and returns to the page. */
export async function action({ request, context }: ActionFunctionArgs) {
  const submission = await readSubmission(request, context, languageChoiceSchema);
  const form = submission.status === "success" ? submission.value : {};
  const language = form.lng;
  if (!isLanguage(language)) throw await badRequest(request, context);
  // Checked with the language prefix taken off: "/ru//evil.example" is refused, not turned into "//evil.example".
  const back = new URL(await redirectTarget(request, context, form.redirectTo, "/"), "http://local");
  const target = pathAfterLanguageChange(back.pathname, language) + back.search;
  return redirect(target, { headers: { "Set-Cookie": await cookies.language().serialize(language) } });
}
