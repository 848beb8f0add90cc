import { sql } from "kysely";
import type { DB } from "~/modules/db/db.server";
import type { Currency, FileInfo, OrderStatus, PaymentReceipt, PaymentSource } from "~db/schema";
import { isUuid } from "./orders.server";

/**
 * An order as its clinic opens it in the cabinet (ADR 070): only the signed-in client whose address
 * the order bears, and never a draft. Any other id — another clinic's, a draft, a malformed one —
 * finds nothing, which the pages answer with 404. The order's page and its invoices (ADR 072) read it.
 */
export async function clientOrder(db: DB, email: string, orderId: string | undefined) {
  if (!orderId || !isUuid(orderId)) return undefined;
  return db
    .selectFrom("orders")
    .select(["id", "status", "created_at", "market", "full_name", "address", "delivery_comment", "total_cost", "currency", "tracking_number", "carrier", "parcel_received_at", "storage_removed_at"])
    .where("id", "=", orderId)
    .where("email", "=", email)
    .where("status", "<>", "draft")
    .executeTakeFirst();
}

/**
 * A patient of one of this clinic's past orders (not a draft), by the order's e-mail (ADR 071); undefined
 * for anything else — another clinic's order or patient, a draft — so the page can answer 404.
 */
export async function clientOrderPatient(db: DB, email: string, orderId: string, patientId: string) {
  const order = await db.selectFrom("orders").selectAll().where("id", "=", orderId).where("email", "=", email).where("status", "<>", "draft").executeTakeFirst();
  if (!order) return undefined;
  const patient = await db.selectFrom("orders_patients").selectAll().where("id", "=", patientId).where("order_id", "=", order.id).executeTakeFirst();
  return patient ? { order, patient } : undefined;
}

const ISO_MS = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;
const iso = (column: string) => sql.raw(`to_char(${column} at time zone 'UTC', ${ISO_MS})`);

/** What the order's page reads of its history, patients and succeeded payments, with the order's row. */
interface OrderPageRecords {
  history: Array<{ id: string; to_status: OrderStatus; tracking_number: string | null; carrier: string | null; undoes: string | null; created_at: string }>;
  patients: Array<{ id: string; patient_name: string; matrix_files_info: FileInfo[] | null; aligner_files_info: FileInfo[] | null; retainer_files_info: FileInfo[] | null }>;
  payments: Array<{ id: string; provider: PaymentSource; amount: number; currency: Currency; customer_vat_number: string | null; invoice_id: string | null; receipt: PaymentReceipt | null; updated_at: string }>;
}

/**
 * The order's own page in one statement (ADR 086): the order as `clientOrder` finds it, with its
 * history, its patients (oldest first) and its succeeded payments as lists the page reads — one
 * round trip instead of the order's and then four more.
 */
export async function clientOrderPage(db: DB, email: string, orderId: string | undefined) {
  if (!orderId || !isUuid(orderId)) return undefined;
  return db
    .selectFrom("orders")
    .select(["id", "status", "created_at", "market", "full_name", "address", "delivery_comment", "total_cost", "currency", "tracking_number", "carrier", "parcel_received_at", "storage_removed_at"])
    .select([
      sql<OrderPageRecords["history"]>`coalesce((select jsonb_agg(jsonb_build_object('id', h.id::text, 'to_status', h.to_status, 'tracking_number', h.tracking_number, 'carrier', h.carrier, 'undoes', h.undoes::text, 'created_at', ${iso("h.created_at")}) order by h.created_at, h.id) from order_status_history h where h.order_id = orders.id), '[]'::jsonb)`.as("history"),
      sql<OrderPageRecords["patients"]>`coalesce((select jsonb_agg(jsonb_build_object('id', p.id, 'patient_name', p.patient_name, 'matrix_files_info', p.matrix_files_info, 'aligner_files_info', p.aligner_files_info, 'retainer_files_info', p.retainer_files_info) order by p.created_at) from orders_patients p where p.order_id = orders.id), '[]'::jsonb)`.as("patients"),
      sql<OrderPageRecords["payments"]>`coalesce((select jsonb_agg(jsonb_build_object('id', pm.id::text, 'provider', pm.provider, 'amount', pm.amount, 'currency', pm.currency, 'customer_vat_number', pm.customer_vat_number, 'invoice_id', pm.invoice_id, 'receipt', pm.receipt, 'updated_at', ${iso("pm.updated_at")}) order by pm.updated_at) from payments pm where pm.order_id = orders.id and pm.status = 'succeeded'), '[]'::jsonb)`.as("payments"),
    ])
    .where("id", "=", orderId)
    .where("email", "=", email)
    .where("status", "<>", "draft")
    .executeTakeFirst();
}

/**
 * "The parcel has arrived" (ADR 070): only on a shipped order of this address not yet marked, once; who
 * and when are kept on the order. The update's own conditions decide, so two presses mark once.
 */
export async function markParcelReceived(db: DB, email: string, orderId: string): Promise<boolean> {
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

/** Claims the order's one sign-in link to its cabinet page (ADR 070): true for the first caller only. */
export async function claimCabinetLink(db: DB, orderId: string): Promise<boolean> {
  const claimed = await db
    .updateTable("orders")
    .set({ cabinet_link_sent_at: new Date() })
    .where("id", "=", orderId)
    .where("cabinet_link_sent_at", "is", null)
    .returning("id")
    .executeTakeFirst();
  return claimed !== undefined;
}

/** Gives the claim back (the link could not go out): the next visit may try again. */
export async function releaseCabinetLink(db: DB, orderId: string): Promise<void> {
  await db.updateTable("orders").set({ cabinet_link_sent_at: null }).where("id", "=", orderId).execute();
}
