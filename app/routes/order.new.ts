import { type ActionFunctionArgs, redirect } from "@remix-run/node";
import { redirectWithToast } from "~/modules/http/answers/toast.server";
import { forgetCurrentOrderHeader } from "~/modules/orders/browser-orders.server";
import { readSubmission } from "~/modules/http/forms/submission.server";
import { newOrderSchema } from "~/modules/orders/forms";

export async function loader() {
  return redirect("/order");
}

/**
 * Starting a fresh order (DESIGN §4.9): one POST used by every "order" button. It only drops the
 * current-order cookie; the draft itself is created by step 1's "next".
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const submission = await readSubmission(request, context, newOrderSchema);
  const headers = { "Set-Cookie": await forgetCurrentOrderHeader() };
  if (submission.status === "success" && submission.value.reason === "clear") {
    return redirectWithToast("/order", { type: "info", title: "wizard.toasts.clearedTitle", description: "wizard.toasts.cleared" }, { headers });
  }
  return redirect("/order", { headers });
}
