import { type ActionFunctionArgs, redirect } from "@remix-run/node";
import { leaveGate } from "~/modules/auth/gate.server";
import { requirePacker } from "~/modules/auth/guards.server";

export async function loader() {
  return redirect("/packer");
}

/** Ends this browser's packer session. */
export async function action({ request, context }: ActionFunctionArgs) {
  await requirePacker(request, context, () => redirect("/packer"));
  return redirect("/packer", { headers: { "Set-Cookie": await leaveGate("packer") } });
}
