import type { Order, PaymentProviderId, PaymentStatus } from "~db/schema";
import type { AppConfig } from "~/modules/config/config.server";
import { type DB, inTransaction } from "~/modules/db/db.server";
import { changeOrderStatus, findOrder, latestPendingOrders, OrderTransitionError } from "~/modules/orders/orders.server";
import { isPaid } from "~/modules/orders/status";
import { NotificationRefusedError, type PaymentProvider, ProviderUnavailableError, type VerifiedPayment } from "./provider";
import { providerById } from "./provider-choice.server";
import { logger } from "~/modules/log/logger.server";
import { countPayment } from "~/modules/metrics/count.server";

/**
 * Verified provider answers → order status (DESIGN §4.19): provider notifications, the return
 * page's reconciliation and the back-office status refresh.
 */

export type ApplyOutcome = "paid" | "already_paid" | "waiting" | "failed" | "update_failed" | "mismatch" | "unknown_payment";

type Matched = { ok: true; attempt: { id: string; status: PaymentStatus }; order: Order } | { ok: false; outcome: "mismatch" | "unknown_payment"; detail: string };

/** Finds our attempt and order for a verified payment and checks order, amount and currency. */
async function matchPayment(db: DB, providerId: PaymentProviderId, verified: VerifiedPayment): Promise<Matched> {
  const attempt = await db
    .selectFrom("payments")
    .select(["id", "status", "order_id", "amount", "currency"])
    .where("provider", "=", providerId)
    .where("provider_payment_id", "=", verified.providerPaymentId)
    .executeTakeFirst();
  if (!attempt?.order_id)
    return {
      ok: false,
      outcome: "unknown_payment",
      detail: `no attempt for ${providerId} ${verified.providerPaymentId}`,
    };
  const order = await findOrder(db, attempt.order_id);
  if (!order)
    return {
      ok: false,
      outcome: "unknown_payment",
      detail: `order of ${verified.providerPaymentId} is gone`,
    };
  const problems = [
    verified.orderId !== order.id && `provider says order ${verified.orderId}`,
    verified.amount !== Number(attempt.amount) && `provider amount ${verified.amount} ≠ attempt ${attempt.amount}`,
    Number(order.total_cost ?? -1) !== Number(attempt.amount) && `order total ${order.total_cost} ≠ attempt ${attempt.amount}`,
    (verified.currency !== attempt.currency || order.currency !== attempt.currency) && `currency ${verified.currency}/${order.currency} ≠ ${attempt.currency}`,
  ].filter(Boolean);
  if (problems.length)
    return {
      ok: false,
      outcome: "mismatch",
      detail: `${providerId} ${verified.providerPaymentId}: ${problems.join("; ")}`,
    };
  return {
    ok: true,
    attempt: { id: attempt.id, status: attempt.status },
    order,
  };
}

async function applyMatched(db: DB, providerId: PaymentProviderId, verified: VerifiedPayment, matched: Extract<Matched, { ok: true }>): Promise<ApplyOutcome> {
  const { attempt, order } = matched;
  // A succeeded attempt never goes back (a stale answer cannot undo a payment).
  if (attempt.status !== verified.status && attempt.status !== "succeeded") {
    await db.updateTable("payments").set({ status: verified.status, updated_at: new Date() }).where("id", "=", attempt.id).where("status", "<>", "succeeded").execute();
  }
  // The payer's invoice details, as the provider reports them (kept once known).
  const payer = verified.payer;
  if (payer && (payer.vatNumber || payer.businessName || payer.invoiceId)) {
    await db
      .updateTable("payments")
      .set({
        customer_vat_number: payer.vatNumber,
        customer_business_name: payer.businessName,
        invoice_id: payer.invoiceId,
      })
      .where("id", "=", attempt.id)
      .execute();
  }
  // The receipt as the provider reports it (ADR 070): kept once known, never wiped by a later answer without it.
  if (verified.receipt) await db.updateTable("payments").set({ receipt: JSON.stringify(verified.receipt) }).where("id", "=", attempt.id).execute();
  if (verified.status === "canceled" || verified.status === "failed") return "failed";
  if (verified.status !== "succeeded") return "waiting";
  if (isPaid(order.status)) return "already_paid";
  try {
    const change = await changeOrderStatus(db, order.id, "paid", {
      kind: "payment",
      label: `${providerId} ${verified.providerPaymentId}`,
    });
    return change.changed ? "paid" : "already_paid";
  } catch (error) {
    if (!(error instanceof OrderTransitionError)) throw error;
    logger.error(`payment: ${providerId} ${verified.providerPaymentId} succeeded but order ${order.id} is ${order.status}; needs staff`);
    return "update_failed";
  }
}

/** Applies what the provider confirmed: the attempt's status, and `paid` once for a successful payment. */
export async function applyVerifiedPayment(db: DB, providerId: PaymentProviderId, verified: VerifiedPayment): Promise<{ outcome: ApplyOutcome; orderId: string | null }> {
  const matched = await matchPayment(db, providerId, verified);
  if (!matched.ok) {
    logger.error("payment: not applied:", matched.detail);
    countPayment(providerId, matched.outcome);
    return { outcome: matched.outcome, orderId: null };
  }
  // The attempt's status and the order's `paid` together or not at all (a connection lost between
  // them must not leave a successful payment on an unpaid order).
  const outcome = await inTransaction(db, (trx) => applyMatched(trx, providerId, verified, matched));
  countPayment(providerId, outcome);
  return { outcome, orderId: matched.order.id };
}

// ---------------------------------------------------------------------------------------------
// Webhooks

export interface NotificationResult {
  status: 200 | 400 | 404 | 503;
  outcome: ApplyOutcome | "ignored" | "duplicate" | "refused" | "unavailable" | "not_configured";
}

/**
 * One provider notification (DESIGN §4.19): verified by the provider module (signature or a fresh
 * GET), refused with 400 when it does not match our attempt and order, recorded once in
 * `payment_events` (a replay changes nothing), then applied.
 */
/**
 * A succeeded payment's receipt, when its event came without one (Stripe's events carry the invoice's
 * id, not its page): asked of the provider once, and never a reason to refuse the event (ADR 070).
 */
async function withReceipt(provider: PaymentProvider, verified: VerifiedPayment): Promise<VerifiedPayment> {
  if (verified.status !== "succeeded" || verified.receipt) return verified;
  try {
    const fetched = await provider.fetch(verified.providerPaymentId);
    return fetched?.receipt ? { ...verified, receipt: fetched.receipt } : verified;
  } catch {
    return verified;
  }
}

export async function handleNotification(db: DB, config: AppConfig, providerId: PaymentProviderId, rawBody: string, headers: Headers): Promise<NotificationResult> {
  const result = await notificationResult(db, config, providerId, rawBody, headers);
  countPayment(providerId, result.outcome);
  return result;
}

async function notificationResult(db: DB, config: AppConfig, providerId: PaymentProviderId, rawBody: string, headers: Headers): Promise<NotificationResult> {
  const provider = providerById(providerId, config, db);
  if (!provider) return { status: 404, outcome: "not_configured" };
  let notification;
  try {
    notification = await provider.verifyNotification(rawBody, headers);
  } catch (error) {
    if (error instanceof NotificationRefusedError) {
      logger.error(`payment: ${providerId} notification refused:`, error.message);
      return { status: 400, outcome: "refused" };
    }
    if (error instanceof ProviderUnavailableError) {
      logger.error(`payment: ${providerId} unavailable while verifying a notification:`, error.message);
      return { status: 503, outcome: "unavailable" };
    }
    throw error;
  }
  if (!notification.payment) return { status: 200, outcome: "ignored" };
  const verified = await withReceipt(provider, notification.payment);
  const matched = await matchPayment(db, providerId, verified);
  if (!matched.ok) {
    logger.error(`payment: ${providerId} notification not applied:`, matched.detail);
    // Someone else's payment on a shared account is acknowledged; a mismatch is refused.
    return matched.outcome === "mismatch" ? { status: 400, outcome: "mismatch" } : { status: 200, outcome: "ignored" };
  }
  let payload: unknown = {};
  try {
    payload = JSON.parse(rawBody);
  } catch {
    // verified above; keep an empty payload
  }
  // The event, the attempt's status and the order's `paid` in one transaction: recorded once (a replay
  // changes nothing) and only when applied, so a failure anywhere in between — the database gone
  // mid-way — leaves nothing behind and the provider's retry is handled in full.
  return inTransaction(db, async (trx): Promise<NotificationResult> => {
    const recorded = await trx
      .insertInto("payment_events")
      .values({
        provider: providerId,
        event_id: notification.eventId,
        payment_id: matched.attempt.id,
        type: notification.type,
        payload: JSON.stringify(payload),
      })
      .onConflict((oc) => oc.columns(["provider", "event_id"]).doNothing())
      .returning("id")
      .executeTakeFirst();
    if (!recorded) return { status: 200, outcome: "duplicate" };
    return { status: 200, outcome: await applyMatched(trx, providerId, verified, matched) };
  });
}

// ---------------------------------------------------------------------------------------------
// Reconciliation: the return page and the back-office status refresh

export type OrderPaymentState = "paid" | "waiting" | "failed" | "update_failed";

/**
 * Asks the providers about an order's recent attempts (or only `paymentId` when given) and applies
 * what they confirm. Reads never trust the return URL: only a provider's answer can mark paid.
 */
export async function reconcileOrder(db: DB, config: AppConfig, order: Order, options: { paymentId?: string | null } = {}): Promise<OrderPaymentState> {
  if (isPaid(order.status)) return "paid";
  if (order.status === "cancelled") return "failed";
  let query = db
    .selectFrom("payments")
    .select(["id", "provider", "provider_payment_id", "status"])
    .where("order_id", "=", order.id)
    .where("provider_payment_id", "is not", null)
    .orderBy("created_at", "desc")
    .limit(5);
  if (options.paymentId) query = query.where("provider_payment_id", "=", options.paymentId);
  const attempts = await query.execute();
  let newest: OrderPaymentState | null = null;
  for (const attempt of attempts) {
    let state: OrderPaymentState = attempt.status === "canceled" || attempt.status === "failed" ? "failed" : "waiting";
    // A bank transfer staff recorded (ADR 072) has no provider to ask.
    const provider = attempt.provider === "invoice" ? null : providerById(attempt.provider, config, db);
    if (provider && (attempt.status === "created" || attempt.status === "pending" || attempt.status === "succeeded")) {
      try {
        const verified = await provider.fetch(attempt.provider_payment_id!);
        if (verified) {
          const { outcome } = await applyVerifiedPayment(db, provider.id, verified);
          if (outcome === "paid" || outcome === "already_paid") return "paid";
          if (outcome === "update_failed") return "update_failed";
          state = outcome === "failed" ? "failed" : "waiting";
        }
      } catch (error) {
        if (!(error instanceof ProviderUnavailableError)) throw error;
        logger.error("payment: provider unavailable while reconciling:", error.message);
      }
    }
    newest ??= state;
  }
  return newest ?? "waiting";
}

export interface RefreshSummary {
  /** Pending orders looked at. */
  checked: number;
  /** Orders that became paid now. */
  paid: number;
}

/** The back-office "refresh statuses": every pending order against its provider. */
export async function refreshPendingPayments(db: DB, config: AppConfig): Promise<RefreshSummary> {
  const pending = await latestPendingOrders(db, 1000);
  let paid = 0;
  for (const order of pending) {
    if ((await reconcileOrder(db, config, order)) === "paid") paid++;
  }
  return { checked: pending.length, paid };
}
