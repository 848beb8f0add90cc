import { type ActionFunctionArgs, redirect } from "@remix-run/node";
import { signOut } from "~/modules/auth/authenticator.server";
import { leaveGate } from "~/modules/auth/gate.server";
import { getViewer } from "~/modules/http/request/request-context.server";

/**
 * The back office's "Выйти": the gate's pass always ends; a staff member signed in by e-mail is
 * signed out too (this browser's session row deleted), so the button means the same whichever way
 * they came in. Both land on the gate, which offers both ways back.
 */
export async function backofficeSignOut({ request, context }: ActionFunctionArgs) {
  const gate = await leaveGate("backoffice");
  const { user } = await getViewer(request, context);
  if (user) return signOut(request, "/backoffice/login", { "Set-Cookie": gate });
  return redirect("/backoffice/login", { headers: { "Set-Cookie": gate } });
}
