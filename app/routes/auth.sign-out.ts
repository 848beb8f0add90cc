import { type ActionFunctionArgs, redirect } from "@remix-run/node";
import { signOut } from "~/modules/auth/authenticator.server";
import { revokeUserSessions } from "~/modules/auth/session.server";
import { getDb } from "~/modules/db/db.server";
import { isDatabaseUnavailable } from "~/modules/db/unavailable";
import { getViewer } from "~/modules/http/request/request-context.server";
import { readSubmission } from "~/modules/http/forms/submission.server";
import { signOutSchema } from "~/modules/auth/forms";
import { redirectWithToast, toastCookieHeader } from "~/modules/http/answers/toast.server";
import { logger } from "~/modules/log/logger.server";

export async function loader() {
  return redirect("/");
}

/**
 * Sign-out (POST only), through the authenticator: this browser's session row is deleted. With
 * `scope=everywhere` every session of the user ends first, on every device.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const submission = await readSubmission(request, context, signOutSchema);
  const everywhere = submission.status === "success" && submission.value.scope === "everywhere";
  const toast = everywhere
    ? { type: "success" as const, title: "toasts.signedOutEverywhere.title", description: "toasts.signedOutEverywhere.text" }
    : { type: "success" as const, title: "toasts.signedOut.title", description: "toasts.signedOut.text" };
  try {
    if (everywhere) {
      const { user } = await getViewer(request, context);
      if (user) await revokeUserSessions(await getDb(), user.id);
    }
    return await signOut(request, "/", { "Set-Cookie": await toastCookieHeader(toast) });
  } catch (error) {
    if (error instanceof Response || isDatabaseUnavailable(error)) throw error;
    // The session could not be ended: the person stays signed in and is told so (ADR 026).
    logger.error("sign-out failed:", error);
    return redirectWithToast("/cabinet", { type: "error", title: "failures.signOutTitle", description: "failures.signOutText" });
  }
}
