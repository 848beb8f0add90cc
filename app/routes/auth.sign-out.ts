import { type ActionFunctionArgs, redirect } from "@remix-run/node";
import { destroyUserSession } from "~/modules/auth/session.server";
import { redirectWithToast } from "~/modules/http/toast.server";

/** Sign-out (POST only): ends the session row and returns home with a toast. */
export async function action({ request }: ActionFunctionArgs) {
  const clear = await destroyUserSession(request);
  return redirectWithToast("/", { type: "success", title: "toasts.signedOut.title", description: "toasts.signedOut.text" }, { headers: { "Set-Cookie": clear } });
}

export async function loader() {
  return redirect("/");
}
