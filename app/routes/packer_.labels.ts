import { type ActionFunctionArgs, redirect } from "@remix-run/node";
import { labelFormatAction } from "~/modules/packer/label-format.server";

/** The packing station's label format, HTML or PDF, remembered per workstation (ADR 103); a visit lands on the list. */
export async function loader() {
  return redirect("/packer");
}

export async function action(args: ActionFunctionArgs) {
  return labelFormatAction(args);
}
