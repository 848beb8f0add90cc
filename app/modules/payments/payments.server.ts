import { createHmac, randomUUID, timingSafeEqual } from "node:crypto";
import type { Currency, Order, PaymentProviderId, PaymentStatus } from "~db/schema";
import type { AppConfig, Market } from "~/modules/config/config.server";
import type { DB } from "~/modules/db/db.server";
import type { Toast } from "~/modules/http/toast.server";
import { changeOrderStatus, findOrder, OrderTransitionError } from "~/modules/orders/orders.server";
import { isPaid } from "~/modules/orders/status";
import { paymentDescription } from "~/modules/pricing/calculate";
import {
  linesTotal,
  NotificationRefusedError,
  type PaymentLine,
  type PaymentProvider,
  MissingConfirmationUrlError,
  PaymentRequestError,
  ProviderRefusedError,
  ProviderUnavailableError,
  type VerifiedPayment,
} from "./provider";
import { SandboxPaymentProvider } from "./sandbox-provider.server";
import { StripePaymentProvider } from "./stripe-provider.server";
import { YooKassaPaymentProvider } from "./yookassa-provider.server";

/**
 * The payment service (DESIGN §4.19–4.20): one place that creates payment attempts, reads their
 * state from the provider, and turns verified provider answers into order status changes.
 * Routes call only this module; the providers sit behind `PaymentProvider`.
 */

export class PaymentProviderUnavailableError extends Error {}

/** An idempotence key is reused only while the provider still honours it (YooKassa: 24 hours). */
const KEY_REUSE_MS = 23 * 60 * 60 * 1000;

function sandboxSigningSecret(config: AppConfig) {
  return createHmac("sha256", config.secrets.SESSION_SECRET).update("sandbox-payment-notifications").digest("hex");
}

/** A provider by its id, when it is configured here (the sandbox never in strict mode). */
export function providerById(id: PaymentProviderId, config: AppConfig, db: DB): PaymentProvider | null {
  const { yookassa, stripe, sandbox, timeoutMs } = config.payments;
  if (id === "yookassa") return yookassa ? new YooKassaPaymentProvider({ ...yookassa, timeoutMs }) : null;
  if (id === "stripe") return stripe ? new StripePaymentProvider({ ...stripe, timeoutMs }) : null;
  return sandbox ? new SandboxPaymentProvider(db, sandboxSigningSecret(config)) : null;
}

/**
 * The provider of a market (DESIGN §3): YooKassa for domestic, Stripe for international, the
 * sandbox when neither is configured outside strict mode. Strict mode never gets the sandbox.
 */
export function paymentProviderFor(market: Market, config: AppConfig, db: DB): PaymentProvider {
  const real: PaymentProviderId = market === "domestic" ? "yookassa" : "stripe";
  const provider = providerById(real, config, db) ?? providerById("sandbox", config, db);
  if (!provider) throw new PaymentProviderUnavailableError(`no payment provider for the ${market} market`);
  return provider;
}

export function sandboxProvider(config: AppConfig, db: DB): SandboxPaymentProvider | null {
  const provider = providerById("sandbox", config, db);
  return provider instanceof SandboxPaymentProvider ? provider : null;
}

// ---------------------------------------------------------------------------------------------
// Creating a payment

export type StartPaymentResult =
  | { ok: true; redirectTo: string }
  | {
      ok: false;
      reason: "no_provider" | "unavailable" | "no_url" | "refused" | "not_payable";
    };

/** The toast for a payment that could not start, in the spec's words (customer-side §8). */
export function paymentFailureToast(reason: Extract<StartPaymentResult, { ok: false }>["reason"], from: "wizard" | "cabinet" = "wizard"): Toast {
  // Paying from the cabinet speaks the staff-side catalogue's words ("Payment from the cabinet").
  if (from === "cabinet") {
    const text = {
      unavailable: "payments.errors.unavailable",
      no_url: "failures.cabinetPayment.noUrl",
      refused: "failures.cabinetPayment.createError",
      no_provider: "failures.cabinetPayment.createFailed",
      not_payable: "payments.link.notPayable",
    }[reason];
    return { type: "error", title: "payments.errors.title", description: text };
  }
  const description = {
    unavailable: "payments.errors.unavailable",
    no_url: "payments.errors.noUrl",
    refused: "payments.errors.createFailed",
    no_provider: "payments.errors.failed",
    not_payable: "payments.link.notPayable",
  }[reason];
  const retry = reason === "no_url" || reason === "refused";
  return {
    type: "error",
    title: "payments.errors.title",
    description,
    ...(retry ? { lines: [{ key: "payments.errors.tryAgain" }] } : {}),
  };
}

export interface StartPaymentInput {
  /** A pending order with a total above 0 (the caller moved it from draft). */
  order: Order;
  /** The payment lines; lines that do not add up to the order's total are replaced by one line. */
  lines: PaymentLine[];
  /** The site's origin, for the return and cancel URLs. */
  origin: string;
}

/** Lines that add up to the amount, or one line for the whole order (DESIGN §4.11). */
export function linesForAmount(orderId: string, amount: number, lines: PaymentLine[]): PaymentLine[] {
  return lines.length > 0 && linesTotal(lines) === amount
    ? lines
    : [
        {
          description: paymentDescription(orderId),
          quantity: 1,
          price: amount,
        },
      ];
}

/** The lines of the latest attempt for this amount, so a repeated payment carries the same receipt. */
export async function previousAttemptLines(db: DB, order: Order): Promise<PaymentLine[]> {
  const amount = Number(order.total_cost ?? 0);
  const attempt = await db.selectFrom("payments").select(["lines"]).where("order_id", "=", order.id).where("amount", "=", amount).orderBy("created_at", "desc").limit(1).executeTakeFirst();
  const lines = (attempt?.lines ?? []) as PaymentLine[];
  return linesTotal(lines) === amount ? lines : [];
}

async function recordAttemptError(db: DB, paymentRowId: string, error: Error, status?: PaymentStatus) {
  await db
    .updateTable("payments")
    .set({
      last_error: error.message.slice(0, 1000),
      updated_at: new Date(),
      ...(status ? { status } : {}),
    })
    .where("id", "=", paymentRowId)
    .execute();
}

/**
 * Sends the customer to pay a pending order. An open attempt for the same amount is reused: its
 * checkout page if the provider still has it open (never two payable attempts at once), its
 * idempotence key if the provider never answered (a retry after a timeout returns the same payment).
 * An outage records the error on the attempt and changes nothing else.
 */
export async function startPayment(db: DB, config: AppConfig, input: StartPaymentInput): Promise<StartPaymentResult> {
  const { order } = input;
  const amount = Number(order.total_cost ?? 0);
  if (order.status !== "pending" || amount <= 0) return { ok: false, reason: "not_payable" };
  let provider: PaymentProvider;
  try {
    provider = paymentProviderFor(order.market, config, db);
  } catch (error) {
    console.error("payment:", (error as Error).message);
    return { ok: false, reason: "no_provider" };
  }
  const successUrl = `${input.origin}${paymentResultPath(config, order.id)}`;
  const lines = linesForAmount(order.id, amount, input.lines);

  const open = await db
    .selectFrom("payments")
    .selectAll()
    .where("order_id", "=", order.id)
    .where("provider", "=", provider.id)
    .where("amount", "=", amount)
    .where("currency", "=", order.currency)
    .where("status", "in", ["created", "pending"])
    .orderBy("created_at", "desc")
    .limit(1)
    .executeTakeFirst();

  let attempt = open && open.status === "created" && Date.now() - open.created_at.getTime() < KEY_REUSE_MS ? open : undefined;
  if (open?.status === "pending" && open.provider_payment_id && open.confirmation_url) {
    let verified: VerifiedPayment | null;
    try {
      verified = await provider.fetch(open.provider_payment_id);
    } catch (error) {
      if (!(error instanceof ProviderUnavailableError)) throw error;
      console.error("payment: provider unavailable while checking an open attempt:", error.message);
      return { ok: false, reason: "unavailable" };
    }
    if (verified?.status === "pending") return { ok: true, redirectTo: open.confirmation_url };
    if (verified) {
      const applied = await applyVerifiedPayment(db, provider.id, verified);
      if (applied.outcome === "paid" || applied.outcome === "already_paid") return { ok: true, redirectTo: successUrl };
    } else {
      await db
        .updateTable("payments")
        .set({
          status: "failed",
          last_error: "unknown to the provider",
          updated_at: new Date(),
        })
        .where("id", "=", open.id)
        .execute();
    }
  }

  attempt ??= await db
    .insertInto("payments")
    .values({
      order_id: order.id,
      order_code: order.code,
      provider: provider.id,
      amount,
      currency: order.currency,
      status: "created",
      idempotence_key: randomUUID(),
      lines: JSON.stringify(lines),
    })
    .returningAll()
    .executeTakeFirstOrThrow();

  let created;
  try {
    created = await provider.create({
      orderId: order.id,
      amount,
      currency: order.currency,
      description: paymentDescription(order.id),
      lines,
      customer: {
        fullName: order.full_name,
        email: order.email,
        phone: order.phone,
      },
      returnUrl: successUrl,
      // Back to the pay page with the link's token: the payer may have come by the link, not as the order's owner.
      cancelUrl: `${input.origin}${paymentLinkPath(config, order.id)}`,
      idempotenceKey: attempt.idempotence_key,
      discountPercent: order.discount_percentage === null ? null : Number(order.discount_percentage),
    });
  } catch (error) {
    if (error instanceof MissingConfirmationUrlError) {
      console.error("payment: no confirmation URL:", error.message);
      await recordAttemptError(db, attempt.id, error);
      return { ok: false, reason: "no_url" };
    }
    if (error instanceof ProviderUnavailableError) {
      // The provider may or may not have created it: the attempt stays open for a retry with its key.
      console.error("payment: provider unavailable:", error.message);
      await recordAttemptError(db, attempt.id, error);
      return { ok: false, reason: "unavailable" };
    }
    if (error instanceof ProviderRefusedError || error instanceof PaymentRequestError) {
      console.error("payment: provider refused:", error.message);
      await recordAttemptError(db, attempt.id, error, "failed");
      return { ok: false, reason: "refused" };
    }
    throw error;
  }
  await db
    .updateTable("payments")
    .set({
      provider_payment_id: created.providerPaymentId,
      status: created.status,
      confirmation_url: created.confirmationUrl,
      last_error: null,
      updated_at: new Date(),
    })
    .where("id", "=", attempt.id)
    .execute();
  await db.updateTable("orders").set({ payment_id: created.providerPaymentId }).where("id", "=", order.id).execute();
  return { ok: true, redirectTo: created.confirmationUrl };
}

// ---------------------------------------------------------------------------------------------
// Verified provider answers → order status

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
    console.error(`payment: ${providerId} ${verified.providerPaymentId} succeeded but order ${order.id} is ${order.status}; needs staff`);
    return "update_failed";
  }
}

/** Applies what the provider confirmed: the attempt's status, and `paid` once for a successful payment. */
export async function applyVerifiedPayment(db: DB, providerId: PaymentProviderId, verified: VerifiedPayment): Promise<{ outcome: ApplyOutcome; orderId: string | null }> {
  const matched = await matchPayment(db, providerId, verified);
  if (!matched.ok) {
    console.error("payment: not applied:", matched.detail);
    return { outcome: matched.outcome, orderId: null };
  }
  return {
    outcome: await applyMatched(db, providerId, verified, matched),
    orderId: matched.order.id,
  };
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
export async function handleNotification(db: DB, config: AppConfig, providerId: PaymentProviderId, rawBody: string, headers: Headers): Promise<NotificationResult> {
  const provider = providerById(providerId, config, db);
  if (!provider) return { status: 404, outcome: "not_configured" };
  let notification;
  try {
    notification = await provider.verifyNotification(rawBody, headers);
  } catch (error) {
    if (error instanceof NotificationRefusedError) {
      console.error(`payment: ${providerId} notification refused:`, error.message);
      return { status: 400, outcome: "refused" };
    }
    if (error instanceof ProviderUnavailableError) {
      console.error(`payment: ${providerId} unavailable while verifying a notification:`, error.message);
      return { status: 503, outcome: "unavailable" };
    }
    throw error;
  }
  if (!notification.payment) return { status: 200, outcome: "ignored" };
  const verified = notification.payment;
  const matched = await matchPayment(db, providerId, verified);
  if (!matched.ok) {
    console.error(`payment: ${providerId} notification not applied:`, matched.detail);
    // Someone else's payment on a shared account is acknowledged; a mismatch is refused.
    return matched.outcome === "mismatch" ? { status: 400, outcome: "mismatch" } : { status: 200, outcome: "ignored" };
  }
  let payload: unknown = {};
  try {
    payload = JSON.parse(rawBody);
  } catch {
    // verified above; keep an empty payload
  }
  const recorded = await db
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
  try {
    return {
      status: 200,
      outcome: await applyMatched(db, providerId, verified, matched),
    };
  } catch (error) {
    // Not applied: forget the event so the provider's retry is handled.
    await db.deleteFrom("payment_events").where("id", "=", recorded.id).execute();
    throw error;
  }
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
    const provider = providerById(attempt.provider, config, db);
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
        console.error("payment: provider unavailable while reconciling:", error.message);
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
  const pending = await db.selectFrom("orders").selectAll().where("status", "=", "pending").orderBy("created_at", "desc").limit(1000).execute();
  let paid = 0;
  for (const order of pending) {
    if ((await reconcileOrder(db, config, order)) === "paid") paid++;
  }
  return { checked: pending.length, paid };
}

// ---------------------------------------------------------------------------------------------
// Payment links

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

/** The documents of a paid order: the amount of its succeeded payment and the clinic's VAT number, if given. */
export interface PaidDocument {
  amount: number;
  currency: Currency;
  vatNumber: string | null;
  businessName: string | null;
}

/** Each order's succeeded payment (the latest, should there be more), for the cabinet and the order's mails. */
export async function paidDocuments(db: DB, orderIds: readonly string[]): Promise<Map<string, PaidDocument>> {
  if (orderIds.length === 0) return new Map();
  const rows = await db
    .selectFrom("payments")
    .select(["order_id", "amount", "currency", "customer_vat_number", "customer_business_name"])
    .where("order_id", "in", orderIds)
    .where("status", "=", "succeeded")
    .orderBy("updated_at", "asc")
    .execute();
  const documents = new Map<string, PaidDocument>();
  for (const row of rows) {
    documents.set(row.order_id!, { amount: Number(row.amount), currency: row.currency, vatNumber: row.customer_vat_number, businessName: row.customer_business_name });
  }
  return documents;
}
