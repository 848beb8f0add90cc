import type { Currency, Order, PaymentLineInfo } from "~db/schema";
import type { InvoiceSupplier } from "~/modules/config/invoice-supplier.server";
import { type DB, inTransaction } from "~/modules/db/db.server";
import { countPayment } from "~/modules/metrics/count.server";
import { lastInvoiceBuyer } from "~/modules/orders/customers.server";
import { changeOrderStatus, isUuid, lockOrderColumns, longOrderNumber } from "~/modules/orders/orders.server";
import { isPaid } from "~/modules/orders/status";
import { laterPaymentLines, linesForAmount, providerTexts } from "./payments.server";
import { invoiceOffered, invoiceStillPayable, openInvoiceOf } from "./invoice";

/**
 * Bank-transfer invoices of the domestic market (ADR 072). A clinic paying as a company asks for one
 * on a priced, unpaid order: the invoice keeps what it prints — the lab's requisites of the day, the
 * buyer as typed, the lines a card payment would send, the total — under a number of its own. Staff
 * record the transfer when it arrives: the invoice, a succeeded payment of provider `invoice` and the
 * order's `paid` go together in one transaction, through `changeOrderStatus` with a payment actor,
 * exactly as a verified card payment (ADR 055); from there the file-server queue and the paid mail
 * follow as they do for a card.
 */

/** Invoices one order may have: a clinic re-typing its name cannot fill the table. */
export const INVOICES_PER_ORDER = 20;

export interface InvoiceBuyer {
  company: string;
  inn: string;
}

export type InvoiceRequest = { ok: true; invoiceId: string; reused: boolean } | { ok: false; reason: "not_payable" | "too_many" };

/** The lines a card payment of this order would send to its provider (the same receipt), worded in Russian. */
async function invoiceLines(db: DB, order: Order): Promise<PaymentLineInfo[]> {
  const total = Number(order.total_cost ?? 0);
  const lines = linesForAmount(order.id, total, await laterPaymentLines(db, order), await providerTexts(order));
  return lines.map(({ description, quantity, price }) => ({ description, quantity, price }));
}

/**
 * An invoice for a priced, unpaid domestic order: the unpaid one already made for the same company,
 * ИНН and amount, else a new one. The order is locked while it is decided, so two presses at once
 * make one invoice.
 */
export async function requestInvoice(db: DB, supplier: InvoiceSupplier, order: Order, buyer: InvoiceBuyer): Promise<InvoiceRequest> {
  if (!invoiceOffered(order)) return { ok: false, reason: "not_payable" };
  const lines = await invoiceLines(db, order);
  return inTransaction(db, async (trx): Promise<InvoiceRequest> => {
    const current = await lockOrderColumns(trx, order.id, ["status", "total_cost", "currency", "market"]);
    if (!current || !invoiceOffered(current) || Number(current.total_cost) !== Number(order.total_cost)) return { ok: false, reason: "not_payable" };
    const total = Number(current.total_cost);
    const earlier = await trx.selectFrom("invoices").select(["id", "client_company", "client_inn", "total", "currency", "paid_at"]).where("order_id", "=", order.id).orderBy("created_at", "desc").execute();
    const same = earlier.find((invoice) => invoice.paid_at === null && invoice.client_company === buyer.company && invoice.client_inn === buyer.inn && Number(invoice.total) === total && invoice.currency === current.currency);
    if (same) return { ok: true, invoiceId: same.id, reused: true };
    if (earlier.length >= INVOICES_PER_ORDER) return { ok: false, reason: "too_many" };
    const created = await trx
      .insertInto("invoices")
      .values({ order_id: order.id, client_company: buyer.company, client_inn: buyer.inn, supplier: JSON.stringify(supplier), lines: JSON.stringify(lines), total, currency: current.currency })
      .returning("id")
      .executeTakeFirstOrThrow();
    return { ok: true, invoiceId: created.id, reused: false };
  });
}

const INVOICE_COLUMNS = ["id", "number", "order_id", "client_company", "client_inn", "supplier", "lines", "total", "currency", "created_at", "paid_at", "paid_by"] as const;

/** An order's invoices, oldest first. */
export async function orderInvoices(db: DB, orderId: string) {
  return db.selectFrom("invoices").select(INVOICE_COLUMNS).where("order_id", "=", orderId).orderBy("created_at").orderBy("number").execute();
}

/** One invoice of one order; undefined for a malformed id or another order's invoice. */
export async function findOrderInvoice(db: DB, orderId: string, invoiceId: string | undefined) {
  if (!invoiceId || !isUuid(invoiceId) || !isUuid(orderId)) return undefined;
  return db.selectFrom("invoices").select(INVOICE_COLUMNS).where("id", "=", invoiceId).where("order_id", "=", orderId).executeTakeFirst();
}

/** The company and ИНН a clinic last put on an invoice, to fill its next request in. */
export async function lastBuyerOf(db: DB, email: string): Promise<InvoiceBuyer | null> {
  const last = await lastInvoiceBuyer(db, email);
  return last ? { company: last.client_company, inn: last.client_inn } : null;
}

export type MarkPaidOutcome =
  | { ok: true; number: number }
  | { ok: false; reason: "not_found" | "already_paid" | "order_paid" | "not_payable" | "amount_changed"; number?: number };

/**
 * Staff record that an invoice's transfer arrived (ADR 072): the invoice (when, by whom), a succeeded
 * payment of provider `invoice` with the invoice's lines, and the order's `paid` — in one
 * transaction, or nothing. Only an unpaid invoice of this order, on a pending order whose total and
 * currency are still the invoice's; a second press, another order's invoice or a changed order
 * changes nothing and says why.
 */
export async function markInvoicePaid(db: DB, orderId: string, invoiceId: string, staffLabel: string): Promise<MarkPaidOutcome> {
  if (!isUuid(orderId) || !isUuid(invoiceId)) return { ok: false, reason: "not_found" };
  const outcome = await applyInvoicePayment(db, orderId, invoiceId, staffLabel);
  // Counted with the card providers' answers (ADR 073): money that arrived for an order paid otherwise,
  // changed or no longer payable is a mismatch, which the payments alert watches; an unknown invoice is not counted.
  const counted = outcome.ok ? "paid" : { already_paid: "already_paid", order_paid: "mismatch", amount_changed: "mismatch", not_payable: "mismatch", not_found: null }[outcome.reason];
  if (counted) countPayment("invoice", counted);
  return outcome;
}

function applyInvoicePayment(db: DB, orderId: string, invoiceId: string, staffLabel: string): Promise<MarkPaidOutcome> {
  return inTransaction(db, async (trx): Promise<MarkPaidOutcome> => {
    const invoice = await trx.selectFrom("invoices").select(["id", "number", "order_id", "client_company", "lines", "total", "currency", "paid_at"]).where("id", "=", invoiceId).where("order_id", "=", orderId).forUpdate().executeTakeFirst();
    if (!invoice) return { ok: false, reason: "not_found" };
    const number = Number(invoice.number);
    if (invoice.paid_at) return { ok: false, reason: "already_paid", number };
    const order = await lockOrderColumns(trx, orderId, ["id", "code", "status", "total_cost", "currency"]);
    if (!order) return { ok: false, reason: "not_found" };
    if (isPaid(order.status)) return { ok: false, reason: "order_paid", number };
    if (order.status !== "pending") return { ok: false, reason: "not_payable", number };
    if (Number(order.total_cost) !== Number(invoice.total) || order.currency !== invoice.currency) return { ok: false, reason: "amount_changed", number };
    const now = new Date();
    const payment = await trx
      .insertInto("payments")
      .values({
        order_id: order.id,
        order_code: order.code,
        provider: "invoice",
        amount: Number(invoice.total),
        currency: invoice.currency,
        status: "succeeded",
        // One payment per invoice, whatever happens: a second insert fails on the key.
        idempotence_key: `invoice-${invoice.id}`,
        lines: JSON.stringify(invoice.lines),
        customer_business_name: invoice.client_company,
        invoice_id: String(number),
        created_at: now,
        updated_at: now,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    await trx.updateTable("invoices").set({ paid_at: now, paid_by: staffLabel, payment_id: payment.id }).where("id", "=", invoice.id).execute();
    await changeOrderStatus(trx, order.id, "paid", { kind: "payment", label: `invoice №${number} (${staffLabel})` });
    return { ok: true, number };
  });
}

type InvoiceRow = NonNullable<Awaited<ReturnType<typeof findOrderInvoice>>>;

/**
 * What the printable page shows of an invoice (ADR 072): as it was issued — the requisites, the buyer,
 * the lines — and whether it still stands: paid (when, by whom for staff), or no longer payable
 * because its order changed (a return to editing, a new total, a cancellation) or was paid otherwise.
 */
/** An invoice as the order's pages list it, the cabinet's and staff's alike. */
export function invoiceSummary(invoice: InvoiceRow) {
  return {
    id: invoice.id,
    number: Number(invoice.number),
    createdAt: invoice.created_at.toISOString(),
    company: invoice.client_company,
    inn: invoice.client_inn,
    total: Number(invoice.total),
    currency: invoice.currency as Currency,
    paidAt: invoice.paid_at?.toISOString() ?? null,
  };
}

/** The invoice a clinic may be paying by transfer, as the note beside the card payment names it; null when none. */
export function openInvoiceNote(invoices: InvoiceRow[], order: Pick<Order, "status" | "total_cost" | "currency">) {
  const open = openInvoiceOf(invoices, order);
  return open ? { number: Number(open.number), createdAt: open.created_at.toISOString() } : null;
}

export function invoiceDocument(invoice: InvoiceRow, order: Pick<Order, "id" | "status" | "total_cost" | "currency">, options: { staff: boolean }) {
  const total = Number(invoice.total);
  const payable = invoiceStillPayable({ total, currency: invoice.currency, paid: false }, order);
  return {
    id: invoice.id,
    number: Number(invoice.number),
    createdAt: invoice.created_at.toISOString(),
    orderNumber: longOrderNumber(order.id),
    supplier: invoice.supplier,
    buyer: { company: invoice.client_company, inn: invoice.client_inn },
    lines: invoice.lines.map((line, index) => ({ position: index + 1, description: line.description, quantity: line.quantity, price: line.price, sum: line.price * line.quantity })),
    total,
    currency: invoice.currency,
    paid: invoice.paid_at ? { at: invoice.paid_at.toISOString(), by: options.staff ? invoice.paid_by : null } : null,
    outdated: !invoice.paid_at && !payable,
  };
}

export type InvoiceDocument = ReturnType<typeof invoiceDocument>;
