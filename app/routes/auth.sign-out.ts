import { type ActionFunctionArgs, redirect } from "@remix-run/node";
import { signOut } from "~/modules/auth/authenticator.server";
import { getSessionUser, revokeUserSessions } from "~/modules/auth/session.server";
import { getDb } from "~/modules/db/db.server";
import { readFormData } from "~/modules/http/request.server";
import { toastCookieHeader } from "~/modules/http/toast.server";

/**
 * Sign-out (POST only), through the authenticator: this browser's session row is deleted. With
 * `scope=everywhere` every session of the user ends first, on every device.
 */
export async function action({ request }: ActionFunctionArgs) {
  const form = await readFormData(request);
  const everywhere = form.get("scope") === "everywhere";
  if (everywhere) {
    const user = await getSessionUser(request);
    if (user) await revokeUserSessions(await getDb(), user.id);
  }
  const toast = everywhere
    ? { type: "success" as const, title: "toasts.signedOutEverywhere.title", description: "toasts.signedOutEverywhere.text" }
    : { type: "success" as const, title: "toasts.signedOut.title", description: "toasts.signedOut.text" };
  return signOut(request, "/", { "Set-Cookie": await toastCookieHeader(toast) });
}

export async function loader() {
  return redirect("/");
}
