import type { LoaderFunctionArgs } from "@remix-run/node";
import * as z from "zod/mini";
import { getDb } from "~/modules/db/db.server";
import { readQuery, word } from "~/modules/http/request/list-query";
import { openableOrder, uploadViewerOf } from "~/modules/uploads/tus-access.server";
import { shortOrderNumber } from "~/modules/orders/orders.server";
import { orderFollowUp } from "~/modules/payments/order-follow-up.server";

const thankYouQuery = z.object({ orderId: word });

/**
 * The thank-you page (customer side §2): the spec's message, and for an order this visitor may open
 * (`?orderId=`, placed — not a draft) its number and the way to it in the cabinet (ADR 070). Any
 * other id shows the page as it always was: it tells nothing of orders one may not open.
 */
export async function loadThankYouPage({ request, context }: LoaderFunctionArgs) {
  const { orderId } = readQuery(request, thankYouQuery);
  if (!orderId) return { order: null };
  const db = await getDb();
  const order = await openableOrder(db, await uploadViewerOf(request, context), orderId);
  if (!order || order.status === "draft") return { order: null };
  return { order: { number: shortOrderNumber(order.id), followUp: await orderFollowUp(db, request, context, order) } };
}
