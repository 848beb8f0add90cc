import type { LoaderFunctionArgs } from "@remix-run/node";
import * as z from "zod/mini";
import { getConfig } from "~/modules/config/config.server";
import { getDb } from "~/modules/db/db.server";
import { asSent, readQuery, word } from "~/modules/http/request/list-query";
import { findOrder, shortOrderNumber } from "~/modules/orders/orders.server";
import { isValidPaymentResultToken, paymentLinkPath } from "~/modules/payments/payment-links.server";
import { reconcileOrder } from "~/modules/payments/reconciliation.server";
import { openableOrder, uploadViewerOf } from "~/modules/uploads/tus-access.server";
import { orderFollowUp } from "./order-follow-up.server";
import { paidDocuments } from "~/modules/payments/payments.server";

/** A value of the address as sent, null when absent: the return token travels on whole in the page's own link. */
/** The return address: the order, its result token and the provider's payment. */
const paymentSuccessQuery = z.object({ orderId: word, r: asSent, paymentId: asSent });

export async function loadPaymentSuccessPage({ request, context }: LoaderFunctionArgs) {
  const query = readQuery(request, paymentSuccessQuery);
  const db = await getDb();
  const config = getConfig();
  const orderId = query.orderId ?? "";
  const resultToken = query.r;
  // The payer's browser comes back with the return address's token; the order's own browser, owner
  // and staff need none. Anyone else learns nothing, not even that the order exists.
  const byToken = isValidPaymentResultToken(config, orderId, resultToken);
  const order = byToken ? await findOrder(db, orderId) : await openableOrder(db, await uploadViewerOf(request, context), orderId);
  if (!order) throw new Response("Not found", { status: 404 });
  const state = await reconcileOrder(db, config, order, { paymentId: query.paymentId });
  const again = `/payment/success?${new URLSearchParams({ orderId: order.id, ...(resultToken ? { r: resultToken } : {}) })}`;
  // The payer who came by the token pays again by the link; the order's own visitors by its page.
  const payAgain = byToken ? paymentLinkPath(config, order.id) : `/pay/${order.id}`;
  // Paid: the way to the order in the cabinet and the payment's receipt (ADR 070).
  const followUp = state === "paid" ? await orderFollowUp(db, request, context, order) : null;
  const receipt = state === "paid" ? ((await paidDocuments(db, [order.id])).get(order.id) ?? null) : null;
  return { again, payAgain, number: shortOrderNumber(order.id), state, canPayAgain: state !== "paid" && order.status === "pending", followUp, receipt };
}
