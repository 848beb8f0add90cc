import { type ActionFunctionArgs, redirect } from "@remix-run/node";
import { leaveGate } from "~/modules/auth/gate.server";

export async function loader() {
  return redirect("/backoffice");
}

/** Ends this browser's back-office password session. */
export async function action(_args: ActionFunctionArgs) {
  return redirect("/backoffice/login", { headers: { "Set-Cookie": await leaveGate("backoffice") } });
}
