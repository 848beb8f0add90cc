import type { LoaderFunctionArgs, ActionFunctionArgs } from "@remix-run/node";
import type { OrderStatus } from "~db/schema";
import { requireUser } from "~/modules/auth/guards.server";
import { carrierName, trackingLink } from "~/modules/config/carriers";
import { getConfig } from "~/modules/config/config.server";
import { type DB, getDb } from "~/modules/db/db.server";
import { getRequestTranslator } from "~/modules/http/request-context.server";
import { readSubmission } from "~/modules/http/submission.server";
import { redirectWithToast } from "~/modules/http/toast.server";
import { cabinetOrderPath } from "./cabinet-links";
import { filesOf } from "./files.server";
import { parcelReceivedSchema } from "./forms";
import { isUuid, longOrderNumber, orderHistory } from "./orders.server";
import { canPay } from "./status";

/**
 * The order's own page in the cabinet (ADR 070): its timeline, its patients and files, its payments
 * with their receipts, the parcel and "received". Only the signed-in client whose address the order
 * bears, and never a draft: any other id — another clinic's, a draft, a malformed one — is 404.
 */
async function clientOrder(db: DB, email: string, orderId: string | undefined) {
  if (!orderId || !isUuid(orderId)) return undefined;
  return db
    .selectFrom("orders")
    .select(["id", "status", "created_at", "full_name", "address", "delivery_comment", "total_cost", "currency", "tracking_number", "carrier", "parcel_received_at", "storage_removed_at"])
    .where("id", "=", orderId)
    .where("email", "=", email)
    .where("status", "<>", "draft")
    .executeTakeFirst();
}

const notFound = () => new Response("Not found", { status: 404 });

/** The statuses the timeline names; the hand-off to payment and a return to editing are the doctor's own steps. */
const TIMELINE_STATUSES: readonly OrderStatus[] = ["paid", "processing", "shipped", "completed", "cancelled"];

export async function loadCabinetOrderPage({ request, context, params }: LoaderFunctionArgs) {
  const orderId = params.orderId;
  const user = await requireUser(request, context);
  const db = await getDb();
  const order = await clientOrder(db, user.email, orderId);
  if (!order) throw notFound();
  const t = await getRequestTranslator(request, context);
  const carriers = getConfig().carriers;
  const [history, patients, payments] = await Promise.all([
    orderHistory(db, order.id),
    db.selectFrom("orders_patients").select(["id", "patient_name", "matrix_files_info", "aligner_files_info", "retainer_files_info"]).where("order_id", "=", order.id).orderBy("created_at").execute(),
    db.selectFrom("payments").select(["id", "amount", "currency", "customer_vat_number", "receipt", "updated_at"]).where("order_id", "=", order.id).where("status", "=", "succeeded").orderBy("updated_at").execute(),
  ]);
  // A change staff undid, and the undoing itself, never happened for the doctor (ADR 062).
  const undone = new Set(history.flatMap((row) => (row.undoes ? [String(row.undoes), String(row.id)] : [])));
  const timeline = [
    { key: "created", at: order.created_at.toISOString(), status: null as OrderStatus | null, tracking: null as null | { number: string; carrier: string | null; link: string | null } },
    ...history
      .filter((row) => TIMELINE_STATUSES.includes(row.to_status) && !undone.has(String(row.id)))
      .map((row) => ({
        key: String(row.id),
        at: row.created_at.toISOString(),
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
      files: (["matrix", "aligners", "retainer"] as const).map((type) => ({ type, files: filesOf(patient, type).map((file) => ({ name: file.originalName, url: file.url, size: file.size })) })),
    })),
    payments: payments.map((payment) => ({
      id: String(payment.id),
      at: payment.updated_at.toISOString(),
      amount: Number(payment.amount),
      currency: payment.currency,
      vatNumber: payment.customer_vat_number,
      receipt: payment.receipt,
    })),
  };
}

/**
 * "The parcel has arrived" (ADR 070): only on a shipped order not yet marked, once; who and when are
 * kept on the order, where staff see them. The update's own conditions decide, so two presses mark once.
 */
async function markParcelReceived(db: DB, email: string, orderId: string) {
  const marked = await db
    .updateTable("orders")
    .set({ parcel_received_at: new Date(), parcel_received_by: email })
    .where("id", "=", orderId)
    .where("email", "=", email)
    .where("status", "=", "shipped")
    .where("parcel_received_at", "is", null)
    .returning("id")
    .executeTakeFirst();
  return marked !== undefined;
}

export async function cabinetOrderAction({ request, context, params }: ActionFunctionArgs) {
  const orderId = params.orderId;
  const user = await requireUser(request, context);
  const db = await getDb();
  const order = await clientOrder(db, user.email, orderId);
  if (!order) throw notFound();
  const submission = await readSubmission(request, context, parcelReceivedSchema);
  if (submission.status !== "success") throw new Response("Unknown action", { status: 400 });
  const path = cabinetOrderPath(order.id);
  if (await markParcelReceived(db, user.email, order.id)) return redirectWithToast(path, { type: "success", title: "cabinet.parcel.marked" });
  return redirectWithToast(path, { type: "error", title: order.parcel_received_at ? "cabinet.parcel.alreadyMarked" : "cabinet.parcel.notShipped" });
}
