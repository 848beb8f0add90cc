import { type ActionFunctionArgs, redirect } from "@remix-run/node";
import { safeRedirect } from "~/modules/auth/guards.server";
import { cookies } from "~/modules/http/cookies.server";
import { readFormData } from "~/modules/http/request.server";

export async function loader() {
  return redirect("/");
}

/** The cookie notice's "OK": remembered for a year. */
export async function action({ request }: ActionFunctionArgs) {
  const form = await readFormData(request);
  return redirect(safeRedirect(form.get("redirectTo"), "/"), {
    headers: { "Set-Cookie": await cookies.cookieConsent().serialize("1") },
  });
}
