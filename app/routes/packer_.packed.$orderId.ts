import { type ActionFunctionArgs, redirect } from "@remix-run/node";
import { packedPageAction } from "~/modules/packer/packing-page.server";

/** The packer's "Упаковано" on an order card (ADR 068); a visit lands on the list. */
export async function loader() {
  return redirect("/packer");
}

export async function action(args: ActionFunctionArgs) {
  return packedPageAction(args);
}
