import { randomUUID } from "node:crypto";
import type { Currency, Order, PaymentReceipt, PaymentStatus } from "~db/schema";
import type { AppConfig } from "~/modules/config/config.server";
import type { DB } from "~/modules/db/db.server";
import type { Toast } from "~/modules/http/answers/toast.server";
import type { Translate } from "~/modules/i18n/translate";
import { providerLanguage } from "~/modules/orders/order-language";
import { recordPaymentId } from "~/modules/orders/orders.server";
import { listPatients } from "~/modules/orders/patients.server";
import { paymentDescription, paymentNumber } from "~/modules/pricing/line-texts";
import { priceOf } from "~/modules/pricing/order-price.server";
import { type PaymentLine, paymentLines } from "~/modules/pricing/payment-lines";
import { textTranslator } from "~/modules/translations/overrides.server";
import {
  linesTotal,
  type PaymentProvider,
  MissingConfirmationUrlError,
  PaymentRequestError,
  ProviderRefusedError,
  ProviderUnavailableError,
  type VerifiedPayment,
} from "./provider";
import { paymentLinkPath, paymentResultPath } from "./payment-links.server";
import { paymentProviderFor } from "./provider-choice.server";
import { applyVerifiedPayment } from "./reconciliation.server";
import { logger } from "~/modules/log/logger.server";

/**
 * The payment service (DESIGN §4.19–4.20): starting a payment attempt and the paid documents.
 * Verified provider answers become order status changes in `reconciliation.server.ts`, the signed
 * links are in `payment-links.server.ts`, and `provider-choice.server.ts` picks the provider; the
 * providers sit behind `PaymentProvider`.
 */

/** An idempotence key is reused only while the provider still honours it (YooKassa: 24 hours). */
const KEY_REUSE_MS = 23 * 60 * 60 * 1000;

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

/** Lines that add up to the amount, or one line for the whole order (DESIGN §4.11), worded by `t`. */
export function linesForAmount(orderId: string, amount: number, lines: PaymentLine[], t: Translate): PaymentLine[] {
  return lines.length > 0 && linesTotal(lines) === amount
    ? lines
    : [
        {
          description: paymentDescription(orderId, t),
          quantity: 1,
          price: amount,
          text: { key: "payments.orderDescription", values: { number: paymentNumber(orderId) } },
        },
      ];
}

/** The texts of what an order sends to its payment provider (ADR 043): the pages' texts, staff edits included. */
export const providerTexts = (order: Pick<Order, "language" | "market">) => textTranslator(providerLanguage(order));

/** The lines of the latest attempt for this amount, so a repeated payment carries the same receipt. */
export async function previousAttemptLines(db: DB, order: Order): Promise<PaymentLine[]> {
  const amount = Number(order.total_cost ?? 0);
  const attempt = await db.selectFrom("payments").select(["lines"]).where("order_id", "=", order.id).where("amount", "=", amount).orderBy("created_at", "desc").limit(1).executeTakeFirst();
  const lines = (attempt?.lines ?? []) as PaymentLine[];
  return linesTotal(lines) === amount ? lines : [];
}

/**
 * Payment lines for an order paid later (payment link, cabinet): the lines of its last attempt, or
 * the lines recalculated with its e-mail's conditions when they give the same total. The payment
 * service falls back to one line for the whole order when neither adds up.
 */
export async function laterPaymentLines(db: DB, order: Order): Promise<PaymentLine[]> {
  const previous = await previousAttemptLines(db, order);
  if (previous.length) return previous;
  const owner = { user: order.email ? { email: order.email } : null };
  const price = await priceOf(db, order, await listPatients(db, order.id), owner);
  return price.total === Number(order.total_cost ?? -1) ? paymentLines(price, await providerTexts(order)) : [];
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
    logger.error("payment:", (error as Error).message);
    return { ok: false, reason: "no_provider" };
  }
  const successUrl = `${input.origin}${paymentResultPath(config, order.id)}`;
  const t = await providerTexts(order);
  const lines = linesForAmount(order.id, amount, input.lines, t);

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
      logger.error("payment: provider unavailable while checking an open attempt:", error.message);
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
      description: paymentDescription(order.id, t),
      language: providerLanguage(order),
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
      logger.error("payment: no confirmation URL:", error.message);
      await recordAttemptError(db, attempt.id, error);
      return { ok: false, reason: "no_url" };
    }
    if (error instanceof ProviderUnavailableError) {
      // The provider may or may not have created it: the attempt stays open for a retry with its key.
      logger.error("payment: provider unavailable:", error.message);
      await recordAttemptError(db, attempt.id, error);
      return { ok: false, reason: "unavailable" };
    }
    if (error instanceof ProviderRefusedError || error instanceof PaymentRequestError) {
      logger.error("payment: provider refused:", error.message);
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
  await recordPaymentId(db, order.id, created.providerPaymentId);
  return { ok: true, redirectTo: created.confirmationUrl };
}


/** The documents of a paid order: the amount of its succeeded payment and the clinic's VAT number, if given. */
export interface PaidDocument {
  amount: number;
  currency: Currency;
  vatNumber: string | null;
  businessName: string | null;
  /** The provider's receipt, as it reported it (ADR 070). */
  receipt: PaymentReceipt | null;
}

/** Each order's succeeded payment (the latest, should there be more), for the cabinet and the order's mails. */
export async function paidDocuments(db: DB, orderIds: readonly string[]): Promise<Map<string, PaidDocument>> {
  if (orderIds.length === 0) return new Map();
  const rows = await db
    .selectFrom("payments")
    .select(["order_id", "amount", "currency", "customer_vat_number", "customer_business_name", "receipt"])
    .where("order_id", "in", orderIds)
    .where("status", "=", "succeeded")
    .orderBy("updated_at", "asc")
    .execute();
  const documents = new Map<string, PaidDocument>();
  for (const row of rows) {
    documents.set(row.order_id!, { amount: Number(row.amount), currency: row.currency, vatNumber: row.customer_vat_number, businessName: row.customer_business_name, receipt: row.receipt });
  }
  return documents;
}
