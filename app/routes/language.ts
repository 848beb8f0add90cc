import { type ActionFunctionArgs, redirect } from "@remix-run/node";
import { safeRedirect } from "~/modules/auth/guards.server";
import { cookies } from "~/modules/http/cookies.server";
import { isLanguage, pathAfterLanguageChange } from "~/modules/i18n/languages";
import { badRequest, readFormData } from "~/modules/http/request.server";

export async function loader() {
  return redirect("/");
}

/** The language picker's form target: remembers the choice and returns to the page. */
export async function action({ request, context }: ActionFunctionArgs) {
  const form = await readFormData(request, context);
  const language = form.get("lng");
  if (!isLanguage(language)) throw await badRequest(request, context);
  const back = new URL(safeRedirect(form.get("redirectTo"), "/"), "http://local");
  const target = pathAfterLanguageChange(back.pathname, language) + back.search;
  return redirect(target, { headers: { "Set-Cookie": await cookies.language().serialize(language) } });
}
