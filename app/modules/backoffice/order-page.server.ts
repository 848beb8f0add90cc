import type { LoaderFunctionArgs } from "@remix-run/node";
import type { Currency, PaymentStatus } from "~db/schema";
import { requireStaff } from "~/modules/auth/guards.server";
import { getConfig } from "~/modules/config/config.server";
import { type DB, getDb } from "~/modules/db/db.server";
import { getRequestTranslator } from "~/modules/http/request-context.server";
import { loadSection, sectionData, sectionFailure } from "~/modules/http/section.server";
import { packingsOf } from "~/modules/packer/packing.server";
import { fileCorrectionsOf, fileCountOf } from "~/modules/orders/files.server";
import { findOrder, orderHistory, shortOrderNumber } from "~/modules/orders/orders.server";
import { isPaid } from "~/modules/orders/status";
import { canHavePaymentLink } from "~/modules/payments/payment-links.server";
import { canSendToTracker } from "~/modules/tracker/order-request.server";
import { type DashboardOrder, type DashboardPatient, historyEntries } from "./dashboard.server";

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
async function orderCard(db: DB, orderId: string) {
  const order = await findOrder(db, orderId);
  if (!order) return null;
  const [patientsSection, history, payments, correctionsSection, packings] = await Promise.all([
    loadSection("back-office: loading the patients of an order", { message: "failures.patients" }, () =>
      db
        .selectFrom("orders_patients")
        .select(["id", "patient_name", "folder_name", "material_type", "cut_type", "matrix_type", "additional_comments", "skip_matrix", "skip_aligners", "skip_retainers"])
        .select([fileCountOf("matrix").as("matrix_count"), fileCountOf("aligners").as("aligners_count"), fileCountOf("retainer").as("retainer_count")])
        .where("order_id", "=", orderId)
        .orderBy("created_at")
        .orderBy("folder_name")
        .execute(),
    ),
    orderHistory(db, orderId),
    db.selectFrom("payments").select(["id", "provider", "amount", "currency", "status", "created_at", "last_error"]).where("order_id", "=", orderId).orderBy("created_at", "desc").limit(50).execute(),
    loadSection("back-office: loading the file corrections of an order", { message: "failures.patients" }, () => fileCorrectionsOf(db, [orderId])),
    packingsOf(db, [orderId]),
  ]);
  const card: DashboardOrder = {
    id: order.id,
    status: order.status,
    createdAt: order.created_at.toISOString(),
    fullName: order.full_name,
    email: order.email,
    phone: order.phone,
    address: order.address,
    deliveryComment: order.delivery_comment,
    comment: order.additional_comments,
    total: order.total_cost === null ? null : Number(order.total_cost),
    currency: order.currency as Currency,
    trackingNumber: order.tracking_number,
    paidAt: order.paid_at ? order.paid_at.toISOString() : null,
    deletable: !isPaid(order.status) && order.paid_at === null && !payments.some((payment) => payment.status === "succeeded"),
    patients: sectionData(patientsSection, []).map(
      (patient): DashboardPatient => ({
        id: patient.id,
        name: patient.patient_name,
        folder: patient.folder_name,
        material: patient.material_type,
        cut: patient.cut_type,
        matrix: patient.matrix_type,
        comment: patient.additional_comments,
        fileCounts: {
          matrix: patient.skip_matrix ? null : patient.matrix_count,
          aligners: patient.skip_aligners ? null : patient.aligners_count,
          retainer: patient.skip_retainers ? null : patient.retainer_count,
        },
      }),
    ),
    history: historyEntries(history, order.status),
    fileCorrections: sectionData(correctionsSection, []),
    packing: packings[0] ?? null,
    parcelReceived: order.parcel_received_at ? { at: order.parcel_received_at.toISOString(), by: order.parcel_received_by } : null,
  };
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
    })),
  };
}

export async function loadOrderOverview({ request, params, context }: LoaderFunctionArgs) {
  await requireStaff(request, context);
  const t = await getRequestTranslator(request, context);
  const found = await orderCard(await getDb(), params.orderId ?? "");
  if (!found) throw new Response("Not found", { status: 404 });
  const config = getConfig();
  const number = shortOrderNumber(found.card.id);
  return {
    title: t("bo.orders.page.title", { number }),
    order: found.card,
    number,
    canPaymentLink: canHavePaymentLink({ status: found.card.status, total_cost: found.card.total }),
    canTracker: canSendToTracker(found.card.status),
    statusForms: { carriers: config.carriers.map(({ id, name, trackingUrl }) => ({ id, name, trackingUrl })), confirmJumps: config.confirmStatusJumps },
    patientsFailure: found.patientsFailure,
    payments: found.payments,
  };
}
