import { type ActionFunctionArgs, redirect } from "@remix-run/node";
import { destroyUserSession } from "~/modules/auth/session.server";
import { isDatabaseUnavailable } from "~/modules/db/unavailable";
import { redirectWithToast } from "~/modules/http/toast.server";

/** Sign-out (POST only): ends the session row and returns home with a toast. */
export async function action({ request }: ActionFunctionArgs) {
  let clear: string;
  try {
    clear = await destroyUserSession(request);
  } catch (error) {
    if (isDatabaseUnavailable(error)) throw error;
    // The session could not be ended: the person stays signed in and is told so (ADR 026).
    console.error("sign-out failed:", error);
    return redirectWithToast("/cabinet", {
      type: "error",
      title: "failures.signOutTitle",
      description: "failures.signOutText",
    });
  }
  return redirectWithToast(
    "/",
    {
      type: "success",
      title: "toasts.signedOut.title",
      description: "toasts.signedOut.text",
    },
    { headers: { "Set-Cookie": clear } },
  );
}

export async function loader() {
  return redirect("/");
}
