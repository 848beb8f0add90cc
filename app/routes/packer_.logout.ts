import { type ActionFunctionArgs, redirect } from "@remix-run/node";
import { hasGatePass, leaveGate } from "~/modules/auth/gate.server";

export async function loader() {
  return redirect("/packer");
}

/** Ends this browser's packer session. */
export async function action({ request }: ActionFunctionArgs) {
  if (!(await hasGatePass("packer", request))) return redirect("/packer");
  return redirect("/packer", { headers: { "Set-Cookie": await leaveGate("packer") } });
}
