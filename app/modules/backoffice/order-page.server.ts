import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import * as z from "zod/mini";
import type { Currency, PaymentStatus } from "~db/schema";
import { requireStaff, type Staff } from "~/modules/auth/guards.server";
import { getConfig } from "~/modules/config/config.server";
import { type DB, getDb } from "~/modules/db/db.server";
import { intentHandler } from "~/modules/http/forms/intents";
import { readQuery, word } from "~/modules/http/request/list-query";
import { getRequestTranslator } from "~/modules/http/request/request-context.server";
import { readSubmission, submittedIntent } from "~/modules/http/forms/submission.server";
import { redirectWithToast } from "~/modules/http/answers/toast.server";
import { logger } from "~/modules/log/logger.server";
import { invoiceSummary, markInvoicePaid, type MarkPaidOutcome, orderInvoices } from "~/modules/payments/invoices.server";
import { loadSection, sectionData, sectionFailure } from "~/modules/http/answers/section.server";
import { packingsOf } from "~/modules/packer/packing.server";
import { fileCorrectionsOf } from "~/modules/orders/files.server";
import { patientCardsOf } from "~/modules/orders/work-list.server";
import { threadState } from "~/modules/messages/thread.server";
import { findOrder, orderHistory, shortOrderNumber } from "~/modules/orders/orders.server";
import { isPaid } from "~/modules/orders/status";
import { canHavePaymentLink } from "~/modules/payments/payment-links.server";
import { canSendToTracker } from "~/modules/tracker/order-request.server";
import { cardOf, historyEntries, patientCard } from "./dashboard.server";
import { orderOverviewSchema } from "./order-forms.server";

/**
 * The order's own page, /backoffice/orders/:orderId (ADR 069): a layout with the order's header and
 * tabs, whose index shows everything its dashboard card shows plus its payment attempts; the files,
 * tracker and delete pages are its children. An id that is no order's is a 404 for the whole tree.
 */

/** The layout's loader: the order's header, or a 404 (a forged, malformed or deleted order's id). */
export async function loadOrderLayout({ request, params, context }: LoaderFunctionArgs) {
  await requireStaff(request, context);
  const order = await findOrder(await getDb(), params.orderId ?? "");
  if (!order) throw new Response("Not found", { status: 404 });
  return { id: order.id, number: shortOrderNumber(order.id), status: order.status, client: order.full_name ?? order.email, code: order.code };
}

/** One order as its card shows it: the same shape the dashboard builds for a page of cards. */
async function orderCard(db: DB, orderId: string, staff: Staff) {
  const order = await findOrder(db, orderId);
  if (!order) return null;
  const [patientsSection, history, payments, correctionsSection, packings, invoices] = await Promise.all([
    loadSection("back-office: loading the patients of an order", { message: "failures.patients" }, () => patientCardsOf(db, [orderId])),
    orderHistory(db, orderId),
    db.selectFrom("payments").select(["id", "provider", "amount", "currency", "status", "created_at", "last_error"]).where("order_id", "=", orderId).orderBy("created_at", "desc").limit(50).execute(),
    loadSection("back-office: loading the file corrections of an order", { message: "failures.patients" }, () => fileCorrectionsOf(db, [orderId])),
    packingsOf(db, [orderId]),
    orderInvoices(db, orderId),
  ]);
  const card = cardOf(order, {
    patients: sectionData(patientsSection, []).map(patientCard),
    history: historyEntries(history, order.status),
    fileCorrections: sectionData(correctionsSection, []),
    packing: packings[0] ?? null,
    everPaid: payments.some((payment) => payment.status === "succeeded"),
    unread: (await threadState(db, orderId)).labUnread,
    transferInvoice: order.status === "pending" ? (invoices.filter((invoice) => invoice.paid_at === null).map((invoice) => String(invoice.number)).pop() ?? null) : null,
  });
  // What paid the order, for the attempts it made unnecessary: one left open reads so, not "Ожидает оплаты".
  const paidBy = payments.find((payment) => payment.status === "succeeded") ?? null;
  return {
    card,
    patientsFailure: sectionFailure(patientsSection) ?? sectionFailure(correctionsSection),
    payments: payments.map((payment) => ({
      id: payment.id,
      provider: payment.provider,
      amount: Number(payment.amount),
      currency: payment.currency as Currency,
      status: payment.status as PaymentStatus,
      createdAt: payment.created_at.toISOString(),
      lastError: payment.last_error,
      /** An attempt left open after the order was paid another way (by bank transfer, or by another attempt). */
      superseded: (payment.status === "created" || payment.status === "pending") && (paidBy !== null || isPaid(order.status)) ? (paidBy?.provider === "invoice" ? ("invoice" as const) : ("other" as const)) : null,
    })),
    // Bank-transfer invoices (ADR 072): a transfer can be recorded for an unpaid one while the order waits for its payment,
    // by a staff member signed in as themselves (ADR 083): the shared password is told why it cannot.
    invoices: invoices.map((invoice) => {
      const payable = invoice.paid_at === null && order.status === "pending" && Number(order.total_cost) === Number(invoice.total);
      return { ...invoiceSummary(invoice), paidBy: invoice.paid_by, canMarkPaid: payable && staff.via === "user", needsSignIn: payable && staff.via !== "user" };
    }),
  };
}

/** `?invoice=<id>`: the question before a transfer is recorded, rendered by the server (no JavaScript needed). */
const overviewQuery = z.object({ invoice: word });

export async function loadOrderOverview({ request, params, context }: LoaderFunctionArgs) {
  const staff = await requireStaff(request, context);
  const t = await getRequestTranslator(request, context);
  const found = await orderCard(await getDb(), params.orderId ?? "", staff);
  if (!found) throw new Response("Not found", { status: 404 });
  const config = getConfig();
  const number = shortOrderNumber(found.card.id);
  const asked = readQuery(request, overviewQuery).invoice;
  const question = found.invoices.find((invoice) => invoice.id === asked && invoice.canMarkPaid) ?? null;
  return {
    title: t("bo.orders.page.title", { number }),
    order: found.card,
    number,
    canPaymentLink: canHavePaymentLink({ status: found.card.status, total_cost: found.card.total }),
    canTracker: canSendToTracker(found.card.status),
    statusForms: { carriers: config.carriers.map(({ id, name, trackingUrl }) => ({ id, name, trackingUrl })), confirmJumps: config.confirmStatusJumps },
    patientsFailure: found.patientsFailure,
    payments: found.payments,
    invoices: found.invoices,
    question,
  };
}

interface OverviewIntentArgs {
  db: DB;
  staff: Staff;
  orderId: string;
  invoiceId: string;
}

const PAID_REFUSALS: Record<Extract<MarkPaidOutcome, { ok: false }>["reason"], string> = {
  not_found: "bo.orders.invoices.notFound",
  already_paid: "bo.orders.invoices.alreadyPaid",
  order_paid: "bo.orders.invoices.orderPaid",
  not_payable: "bo.orders.invoices.notPayable",
  amount_changed: "bo.orders.invoices.amountChanged",
};

/**
 * "Отметить оплату по счёту" (ADR 072), after the question: the invoice, a payment and the order's
 * `paid` together, as a verified card payment; anything else changes nothing and the toast says why.
 */
async function invoicePaid({ db, staff, orderId, invoiceId }: OverviewIntentArgs) {
  const back = `/backoffice/orders/${orderId}`;
  let outcome: MarkPaidOutcome;
  try {
    outcome = await markInvoicePaid(db, orderId, invoiceId, staff.actorLabel);
  } catch (error) {
    logger.error("back-office: recording an invoice's transfer failed:", error);
    return redirectWithToast(back, { type: "error", title: "bo.toasts.error", description: "bo.orders.invoices.failed" });
  }
  if (!outcome.ok) return redirectWithToast(back, { type: "error", title: "bo.toasts.error", description: PAID_REFUSALS[outcome.reason], values: { number: outcome.number ?? "—" } });
  return redirectWithToast(back, { type: "success", title: "bo.orders.invoices.marked", description: "bo.orders.invoices.markedText", values: { number: outcome.number } });
}

const OVERVIEW_INTENTS = { invoice_paid: invoicePaid };

/** Its one intent records a transfer under the staff member's name: the shared password is refused (403, ADR 083). */
export async function orderOverviewAction({ request, params, context }: ActionFunctionArgs) {
  const staff = await requireStaff(request, context, { signedIn: true });
  const db = await getDb();
  const order = await findOrder(db, params.orderId ?? "");
  if (!order) throw new Response("Not found", { status: 404 });
  const submission = await readSubmission(request, context, orderOverviewSchema);
  const handler = intentHandler(OVERVIEW_INTENTS, submittedIntent(submission));
  if (!handler || submission.status !== "success") throw new Response("Unknown action", { status: 400 });
  return handler({ db, staff, orderId: order.id, invoiceId: submission.value.invoiceId });
}
