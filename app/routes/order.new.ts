import { type ActionFunctionArgs, redirect } from "@remix-run/node";
import { redirectWithToast } from "~/modules/http/toast.server";
import { forgetCurrentOrderHeader } from "~/modules/orders/browser-orders.server";
import { readFormData } from "~/modules/http/request.server";

export async function loader() {
  return redirect("/order");
}

/**
 * Starting a fresh order (DESIGN §4.9): one POST used by every "order" button. It only drops the
 * current-order cookie; the draft itself is created by step 1's "next".
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const form = await readFormData(request, context);
  const headers = { "Set-Cookie": await forgetCurrentOrderHeader() };
  if (form.get("reason") === "clear") {
    return redirectWithToast("/order", { type: "info", title: "wizard.toasts.clearedTitle", description: "wizard.toasts.cleared" }, { headers });
  }
  return redirect("/order", { headers });
}
