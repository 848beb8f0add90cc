import type { LoaderFunctionArgs, ActionFunctionArgs } from "@remix-run/node";
import type { Submission } from "@conform-to/react";
import * as z from "zod/mini";
import type { OrderStatus } from "~db/schema";
import { requireUser } from "~/modules/auth/guards.server";
import type { SessionUser } from "~/modules/auth/session.server";
import { carrierName, trackingLink } from "~/modules/config/carriers";
import { getConfig } from "~/modules/config/config.server";
import { type DB, getDb } from "~/modules/db/db.server";
import { intentHandler } from "~/modules/http/forms/intents";
import { getRequestTranslator } from "~/modules/http/request/request-context.server";
import { type FormReply, intentValue, readSubmission, refused, submittedIntent } from "~/modules/http/forms/submission.server";
import { redirectWithToast } from "~/modules/http/answers/toast.server";
import { invoiceOffered } from "~/modules/payments/invoice";
import { invoiceSummary, lastBuyerOf, openInvoiceNote, orderInvoices, requestInvoice } from "~/modules/payments/invoices.server";
import { cabinetInvoicePath, cabinetOrderPath } from "~/modules/orders/cabinet-links";
import { clientOrder, clientOrderPage, markParcelReceived } from "~/modules/orders/client-order.server";
import { filesOf } from "~/modules/orders/files.server";
import { invoiceRequestSchema, parcelReceivedSchema } from "~/modules/orders/forms";
import { clinicMessageSchema, MESSAGE_TOO_MANY } from "~/modules/messages/thread";
import { markThreadRead, postMessage, readThread } from "~/modules/messages/thread.server";
import { findOrder, isUuid, longOrderNumber } from "~/modules/orders/orders.server";
import { canPay } from "~/modules/orders/status";

/**
 * The order's own page in the cabinet (ADR 070): its timeline, its patients and files, its payments
 * with their receipts, the parcel and "received", its bank-transfer invoices (ADR 072). Only the
 * signed-in client whose address the order bears (`clientOrder`): anyone else gets 404. Its thread
 * with the lab (ADR 104): the messages without the lab's notes, and a form to write.
 */

/** The page's forms, by intent: the order's own (orders/forms.ts) and the thread's message. */
const cabinetOrderSchema = z.discriminatedUnion("intent", [parcelReceivedSchema, invoiceRequestSchema, clinicMessageSchema]);

const notFound = () => new Response("Not found", { status: 404 });

/** The statuses the timeline names; the hand-off to payment and a return to editing are the doctor's own steps. */
const TIMELINE_STATUSES: readonly OrderStatus[] = ["paid", "processing", "shipped", "completed", "cancelled"];

export async function loadCabinetOrderPage({ request, context, params }: LoaderFunctionArgs) {
  const orderId = params.orderId;
  const user = await requireUser(request, context);
  const db = await getDb();
  // The order with its history, patients and payments in one statement; its invoices beside it (they
  // are read by the order's id, and thrown away with it when the order is not this clinic's).
  const [order, orderInvoiceRows] = await Promise.all([clientOrderPage(db, user.email, orderId), orderId && isUuid(orderId) ? orderInvoices(db, orderId) : []]);
  if (!order) throw notFound();
  // Read only once the order is known to be this clinic's; the clinic's side never holds a lab note.
  const thread = await readThread(db, order.id, "clinic");
  if (thread.state.clinicUnread > 0) await markThreadRead(db, order.id, "clinic");
  const t = await getRequestTranslator(request, context);
  const carriers = getConfig().carriers;
  const offered = invoiceOffered(order);
  const { history, patients, payments } = order;
  const invoices = orderInvoiceRows;
  const lastBuyer = offered ? await lastBuyerOf(db, user.email) : null;
  // A change staff undid, and the undoing itself, never happened for the doctor (ADR 062).
  const undone = new Set(history.flatMap((row) => (row.undoes ? [String(row.undoes), String(row.id)] : [])));
  const timeline = [
    { key: "created", at: order.created_at.toISOString(), status: null as OrderStatus | null, tracking: null as null | { number: string; carrier: string | null; link: string | null } },
    ...history
      .filter((row) => TIMELINE_STATUSES.includes(row.to_status) && !undone.has(String(row.id)))
      .map((row) => ({
        key: String(row.id),
        at: row.created_at,
        status: row.to_status as OrderStatus | null,
        tracking: row.tracking_number ? { number: row.tracking_number, carrier: carrierName(carriers, row.carrier), link: trackingLink(carriers, row.carrier, row.tracking_number) } : null,
      })),
    ...(order.parcel_received_at ? [{ key: "received", at: order.parcel_received_at.toISOString(), status: null, tracking: null }] : []),
  ];
  const number = longOrderNumber(order.id);
  return {
    title: t("cabinet.orderNumber", { number }),
    order: {
      id: order.id,
      number,
      status: order.status,
      createdAt: order.created_at.toISOString(),
      fullName: order.full_name,
      address: order.address,
      deliveryComment: order.delivery_comment,
      total: order.total_cost === null ? null : Number(order.total_cost),
      currency: order.currency,
      canPay: canPay(order.status, order.total_cost === null ? null : Number(order.total_cost)),
      tracking: order.tracking_number ? { number: order.tracking_number, carrier: carrierName(carriers, order.carrier), link: trackingLink(carriers, order.carrier, order.tracking_number) } : null,
      received: order.parcel_received_at?.toISOString() ?? null,
      canMarkReceived: order.status === "shipped" && !order.parcel_received_at,
      filesRemoved: order.storage_removed_at !== null,
    },
    timeline,
    patients: patients.map((patient) => ({
      id: patient.id,
      name: patient.patient_name,
      files: (["matrix", "aligners", "retainer"] as const).map((type) => ({ type, files: filesOf(patient as Parameters<typeof filesOf>[0], type).map((file) => ({ name: file.originalName, url: file.url, size: file.size, ...(file.source ? { sourceUrl: `/files/orders/${file.source.storagePath}` } : {}) })) })),
    })),
    payments: payments.map((payment) => ({
      id: String(payment.id),
      at: payment.updated_at,
      amount: Number(payment.amount),
      currency: payment.currency,
      vatNumber: payment.customer_vat_number,
      receipt: payment.receipt,
      // A bank transfer staff recorded against an invoice (ADR 072): its number.
      invoiceNumber: payment.provider === "invoice" ? payment.invoice_id : null,
    })),
    // Bank-transfer invoices (ADR 072): the form while the order can be paid, and those already made.
    invoiceForm: offered ? { company: lastBuyer?.company ?? "", inn: lastBuyer?.inn ?? "" } : null,
    // A transfer may be on its way: the invoice is named beside the card payment.
    openInvoice: openInvoiceNote(invoices, order),
    invoices: invoices.map((invoice) => ({
      ...invoiceSummary(invoice),
      href: cabinetInvoicePath(order.id, invoice.id),
    })),
    thread: { messages: thread.messages, waitingOnClinic: thread.state.waitingOn === "clinic" },
  };
}

type Found = NonNullable<Awaited<ReturnType<typeof clientOrder>>>;

interface CabinetOrderIntentArgs {
  db: DB;
  user: SessionUser;
  order: Found;
  submission: Submission<z.output<typeof cabinetOrderSchema>, string[]>;
}

async function parcelReceived({ db, user, order }: CabinetOrderIntentArgs) {
  const path = cabinetOrderPath(order.id);
  if (await markParcelReceived(db, user.email, order.id)) return redirectWithToast(path, { type: "success", title: "cabinet.parcel.marked" });
  return redirectWithToast(path, { type: "error", title: order.parcel_received_at ? "cabinet.parcel.alreadyMarked" : "cabinet.parcel.notShipped" });
}

/**
 * "Получить счёт" (ADR 072): a refused company or ИНН is said in place with what was typed; a good
 * one makes the invoice (or finds the unpaid one made for the same company) and opens it to print.
 */
async function invoice({ db, order, submission }: CabinetOrderIntentArgs) {
  const path = cabinetOrderPath(order.id);
  if (!invoiceOffered(order)) return redirectWithToast(path, { type: "error", title: "cabinet.invoice.failedTitle", description: "cabinet.invoice.notPayable" });
  const form = intentValue(submission, "invoice");
  if (!form) return refused(submission);
  const full = await findOrder(db, order.id);
  if (!full) throw notFound();
  const made = await requestInvoice(db, getConfig().invoiceSupplier, full, { company: form.company, inn: form.inn });
  if (!made.ok) return redirectWithToast(path, { type: "error", title: "cabinet.invoice.failedTitle", description: made.reason === "too_many" ? "cabinet.invoice.tooMany" : "cabinet.invoice.notPayable" });
  return redirectWithToast(cabinetInvoicePath(order.id, made.invoiceId), { type: "success", title: made.reused ? "cabinet.invoice.reused" : "cabinet.invoice.made" });
}

/** The clinic writes to the lab (ADR 104); too many in the hour is said at the field with the text kept. */
async function message({ db, user, order, submission }: CabinetOrderIntentArgs) {
  const form = intentValue(submission, "message");
  if (!form) return refused(submission);
  const posted = await postMessage(db, { orderId: order.id, side: "clinic", author: user.email, body: form.body });
  if (!posted.ok) return refused(submission, undefined, 429, { body: [MESSAGE_TOO_MANY] });
  return redirectWithToast(`${cabinetOrderPath(order.id)}#message-${posted.id}`, { type: "success", title: "thread.toast.sent" });
}

const CABINET_ORDER_INTENTS = { received: parcelReceived, invoice, message };

export type CabinetOrderReply = FormReply;

export async function cabinetOrderAction({ request, context, params }: ActionFunctionArgs) {
  const orderId = params.orderId;
  const user = await requireUser(request, context);
  const db = await getDb();
  const order = await clientOrder(db, user.email, orderId);
  if (!order) throw notFound();
  const submission = await readSubmission(request, context, cabinetOrderSchema);
  const handler = intentHandler(CABINET_ORDER_INTENTS, submittedIntent(submission));
  if (!handler) throw new Response("Unknown action", { status: 400 });
  return handler({ db, user, order, submission });
}
