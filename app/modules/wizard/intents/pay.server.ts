import { redirectDocument } from "@remix-run/node";
import type { Order } from "~db/schema";
import { getConfig } from "~/modules/config/config.server";
import type { DB } from "~/modules/db/db.server";
import type { Viewer } from "~/modules/http/request/request-context.server";
import { redirectWithToast } from "~/modules/http/answers/toast.server";
import { publicOrigin } from "~/modules/market/market.server";
import { changeOrderStatus, findOrder } from "~/modules/orders/orders.server";
import { paymentFailureToast, previousAttemptLines, providerTexts, startPayment as startOrderPayment } from "~/modules/payments/payments.server";
import { priceOf } from "~/modules/pricing/order-price.server";
import { type PaymentLine, paymentLines } from "~/modules/pricing/payment-lines";
import { actorOf } from "../order-access.server";
import { forgetCurrentOrderHeader } from "~/modules/orders/browser-orders.server";
import { checkComplete } from "../step-fields.server";
import { linkPartnerAtHandOff } from "~/modules/orders/customers.server";
import { listPatients } from "~/modules/orders/patients.server";
import { setWizardStep, storeDraftPrice, updateDraft } from "~/modules/orders/drafts.server";
import type { IntentArgs } from "./types";

/**
 * Hand-off to payment (customer-side §4): contacts saved, total recalculated, draft → pending
 * (composition frozen), partner linked once, then the payment service creates (or reuses) an attempt
 * and the browser goes to the provider's page with the current-order cookie cleared. A provider
 * outage leaves the order pending and sends the doctor back to the summary with a clear message;
 * the next press retries with the same idempotence key.
 */
export async function startPayment(db: DB, order: Order, viewer: Viewer, partnerCode: string | null) {
  const patients = await listPatients(db, order.id);
  if (order.status === "draft") {
    const incomplete = checkComplete(order, patients, order.market);
    if (incomplete) {
      // The step that settles it, for its patient, and back to the summary from there (ADR 060, 087).
      if (incomplete.patientId) await updateDraft(db, order.id, { current_patient_id: incomplete.patientId });
      await setWizardStep(db, order.id, incomplete.step, true);
      return redirectWithToast("/order", {
        type: "error",
        title: "wizard.errors.incompleteTitle",
        description: incomplete.error,
        ...(incomplete.files ? { lines: [{ key: "wizard.summary.openFiles", values: { names: incomplete.files.join(", ") } }] } : {}),
      });
    }
  }
  let lines: PaymentLine[] = [];
  if (order.status === "draft") {
    // The amount charged follows the address's history whoever is signed in (ADR 083).
    const price = await priceOf(db, order, patients, { ...viewer, settling: true });
    if (price.total <= 0)
      return redirectWithToast("/order", {
        type: "error",
        title: "wizard.payment.errorTitle",
        description: "wizard.payment.noAmount",
      });
    await storeDraftPrice(db, order.id, price);
    await linkPartnerAtHandOff(db, order, partnerCode);
    await changeOrderStatus(db, order.id, "pending", actorOf(viewer, order));
    lines = paymentLines(price, await providerTexts(order));
  } else {
    // Frozen since hand-off: the total stays; the lines are those of the earlier attempt.
    lines = await previousAttemptLines(db, order);
  }
  const pending = (await findOrder(db, order.id))!;
  if (Number(pending.total_cost ?? 0) <= 0)
    return redirectWithToast("/order", {
      type: "error",
      title: "wizard.payment.errorTitle",
      description: "wizard.payment.noAmount",
    });
  const config = getConfig();
  const result = await startOrderPayment(db, config, { order: pending, lines, origin: publicOrigin(pending.market) });
  if (!result.ok) {
    return redirectWithToast(`/order?id=${order.id}`, paymentFailureToast(result.reason));
  }
  // The payment page is the provider's (or the sandbox's stand-in): the browser loads it as a new
  // document, with JavaScript too — not as a page of this app found, fetched and rendered in turn.
  return redirectDocument(result.redirectTo, {
    headers: { "Set-Cookie": await forgetCurrentOrderHeader() },
  });
}

export const payOrder = ({ db, order, viewer, partnerCode }: IntentArgs) => startPayment(db, order, viewer, partnerCode);
