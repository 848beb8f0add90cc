import { redirect } from "@remix-run/node";
import { changeOrderStatus, OrderTransitionError } from "~/modules/orders/orders.server";
import { actorOf } from "../order-access.server";
import { setWizardStep } from "~/modules/orders/drafts.server";
import type { IntentArgs } from "./types";
import { LAST_STEP } from "../steps";

/** "Edit order": a handed-off order returns to draft at the summary, and its open payment attempt is cancelled. */
export async function returnToDraft({ db, order, viewer }: IntentArgs) {
  try {
    await changeOrderStatus(db, order.id, "draft", actorOf(viewer, order), {
      note: "returned to draft by the customer",
    });
  } catch (error) {
    if (!(error instanceof OrderTransitionError)) throw error;
  }
  await db.updateTable("payments").set({ status: "canceled", updated_at: new Date() }).where("order_id", "=", order.id).where("status", "in", ["created", "pending"]).execute();
  await setWizardStep(db, order.id, LAST_STEP);
  return redirect("/order");
}
