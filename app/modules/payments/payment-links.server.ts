import { createHmac, timingSafeEqual } from "node:crypto";
import type { Order } from "~db/schema";
import type { AppConfig } from "~/modules/config/config.server";

/** The signed payment link (staff send it) and the signed address of the payment's return page. */

function linkToken(config: AppConfig, orderId: string) {
  return createHmac("sha256", config.secrets.SESSION_SECRET).update(`payment-link:${orderId}`).digest("base64url").slice(0, 32);
}

/** A payment link for staff to send (DESIGN §4.20): opening it shows the order; only its POST pays. */
export function paymentLinkPath(config: AppConfig, orderId: string) {
  return `/pay/${orderId}?t=${linkToken(config, orderId)}`;
}

/**
 * The return page of a payment (`/payment/success`): the provider sends the payer back to this
 * address, and its token lets that browser see the order's number and payment state — nothing else,
 * and without adding the order to the browser's orders (ADR 031). Others who may open the order
 * (its browser, owner, staff) need no token.
 */
export function paymentResultPath(config: AppConfig, orderId: string) {
  return `/payment/success?orderId=${orderId}&r=${resultToken(config, orderId)}`;
}

function resultToken(config: AppConfig, orderId: string) {
  return createHmac("sha256", config.secrets.SESSION_SECRET).update(`payment-result:${orderId}`).digest("base64url").slice(0, 32);
}

export function isValidPaymentResultToken(config: AppConfig, orderId: string, token: string | null): boolean {
  return isSameToken(token, resultToken(config, orderId));
}

function isSameToken(given: string | null, expected: string): boolean {
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

export function isValidPaymentLinkToken(config: AppConfig, orderId: string, token: string | null): boolean {
  return isSameToken(token, linkToken(config, orderId));
}

/** Payment links exist for drafts and pending orders with a total above 0 (staff side §4). */
export const canHavePaymentLink = (order: Pick<Order, "status" | "total_cost">) => (order.status === "draft" || order.status === "pending") && Number(order.total_cost ?? 0) > 0;
