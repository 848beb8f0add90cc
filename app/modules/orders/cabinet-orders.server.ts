import { sql } from "kysely";
import type { Currency, NotificationChannel, OrderStatus, PaymentReceipt } from "~db/schema";
import { type DB, plannedCount } from "~/modules/db/db.server";
import { inOrder } from "./files.server";
import { containsPattern } from "./order-search.server";
import { CABINET_STATUSES } from "./status";
import { statusCountsQuery, tabCount } from "./status-counts.server";

/**
 * A clinic's orders as its cabinet lists them (customer side §6, ADR 070): drafts hidden, each tab
 * counted up to a cap, pages keyset on (created_at, id), a search within the clinic's own orders.
 */

/** Orders a page of the cabinet's list shows. */
export const CABINET_PAGE_SIZE = 20;

/** A patient of a listed order, as the list query aggregates it: the names of its files, which is all the card shows of them. */
export interface CabinetPatient {
  id: string;
  patient_name: string;
  matrix: string[];
  aligners: string[];
  retainers: string[];
}

/**
 * The names of a file list's files, in their order, as `filesOf` reads the list (orders/files.server.ts):
 * entries without a storage path, name or address, and files set aside by a skip (ADR 087), left out. Read in the database (each list is an
 * array: the table checks it), so a page of orders carries names, not every file's whole record.
 */
function fileNames(column: "matrix_files_info" | "aligner_files_info" | "retainer_files_info") {
  return sql`(select coalesce(jsonb_agg(e.f ->> 'originalName' order by e.i), '[]'::jsonb)
    from jsonb_array_elements(${sql.ref(`p.${column}`)}) with ordinality as e(f, i)
    where coalesce(e.f ->> 'storagePath', '') <> '' and coalesce(e.f ->> 'originalName', '') <> '' and coalesce(e.f ->> 'url', '') <> '' and ${inOrder(sql`e.f`)})`;
}
/** The order's last succeeded payment, as the list query picks it (amounts in minor units, as JSON numbers). */
export interface PaymentDocumentRow {
  amount: number | string;
  currency: Currency;
  customer_vat_number: string | null;
  customer_business_name: string | null;
  receipt: PaymentReceipt | null;
}

/** What a page of the list asks for: the cabinet's query, read by the cabinet (cabinet/cabinet-query.ts). */
export interface ClientOrderQuery {
  search: string;
  status: OrderStatus | null;
  sort: "newest" | "oldest";
  /** The last order shown, as the database wrote its time (microseconds kept). */
  after: { createdAt: string; id: string } | null;
  /** Only the orders whose thread waits for the clinic's answer (ADR 104). */
  answer?: boolean;
}

/** The thread's own row waits for the clinic (ADR 104): one probe of order_threads by its key. */
const awaitsClinic = sql<boolean>`exists (select 1 from order_threads t where t.order_id = orders.id and t.waiting_on = 'clinic')`;

/** How many of the client's orders wait for its answer (ADR 104), up to `cap + 1`: the client's orders by their index, each probed once. */
export async function countAwaitingClinic(db: DB, email: string, cap: number): Promise<number> {
  const capped = clientOrders(db, email, null).where(awaitsClinic).select(sql<number>`1`.as("one")).limit(plannedCount(cap + 1));
  return Number((await db.selectFrom(capped.as("capped")).select(sql<number>`count(*)::int`.as("count")).executeTakeFirstOrThrow()).count);
}

/** This client's placed orders (drafts are hidden, as the spec says), of one status or all. */
function clientOrders(db: DB, email: string, status: OrderStatus | null) {
  let query = db.selectFrom("orders").where("orders.email", "=", email);
  query = status ? query.where("orders.status", "=", status) : query.where("orders.status", "<>", "draft");
  return query;
}

/**
 * Each tab's orders, each counted up to `cap` from orders_email_status_idx, and the client's
 * channel, in one round trip. Counts are of the tab, not of the search (as the back-office's tabs).
 */
export async function countCabinetTabs<Tab extends OrderStatus | "all">(
  db: DB,
  email: string,
  tabs: readonly Tab[],
  cap: number,
): Promise<{ counts: Record<Tab, number>; channel: NotificationChannel | null }> {
  const statusesOf = (tab: Tab): readonly OrderStatus[] => (tab === "all" ? CABINET_STATUSES : [tab as OrderStatus]);
  const rows = await statusCountsQuery(db, [...new Set(tabs.flatMap(statusesOf))], clientOrders(db, email, null), cap)
    .select((eb) => eb.selectFrom("client_settings").select("notification_channel").where("email", "=", email).as("channel"))
    .execute();
  const counts = new Map(rows.map((row) => [row.status, Number(row.count)]));
  return {
    counts: Object.fromEntries(tabs.map((tab) => [tab, tabCount(counts, statusesOf(tab), cap)])) as Record<Tab, number>,
    channel: rows[0]?.channel ?? null,
  };
}

/**
 * One page of the client's orders by date (newest or oldest first), keyset-paged from `after`, and one
 * more to tell whether another page follows. A search looks for the client name of the order or a
 * patient's name, any case, within this client's orders only: the plan walks the client's orders by
 * their index and looks into each one's patients (a LATERAL probe of orders_patients_order_idx), so a
 * clinic with thousands of orders never reads other clinics' patients (ADR 042).
 */
export async function listCabinetOrders(db: DB, email: string, query: ClientOrderQuery) {
  let rows = clientOrders(db, email, query.status).select([
    "orders.id",
    "orders.status",
    "orders.created_at",
    sql<string>`orders.created_at::text`.as("cursor_time"),
    "orders.address",
    "orders.delivery_comment",
    "orders.total_cost",
    "orders.currency",
    "orders.tracking_number",
    "orders.carrier",
    "orders.parcel_received_at",
    // The order's patients and its payment document ride along (ADR 070): one round trip for the page's orders.
    sql<CabinetPatient[]>`coalesce((select jsonb_agg(jsonb_build_object('id', p.id, 'patient_name', p.patient_name, 'matrix', ${fileNames("matrix_files_info")}, 'aligners', ${fileNames("aligner_files_info")}, 'retainers', ${fileNames("retainer_files_info")}) order by p.created_at, p.id) from orders_patients p where p.order_id = orders.id), '[]'::jsonb)`.as("patients"),
    // The lab's messages the clinic has not opened (ADR 104).
    sql<number | null>`(select t.clinic_unread from order_threads t where t.order_id = orders.id)`.as("unread"),
    sql<PaymentDocumentRow | null>`(select jsonb_build_object('amount', pm.amount, 'currency', pm.currency, 'customer_vat_number', pm.customer_vat_number, 'customer_business_name', pm.customer_business_name, 'receipt', pm.receipt) from payments pm where pm.order_id = orders.id and pm.status = 'succeeded' order by pm.updated_at desc limit 1)`.as("payment"),
  ]);
  if (query.answer) rows = rows.where(awaitsClinic);
  if (query.search) {
    const pattern = containsPattern(query.search);
    rows = rows
      .leftJoinLateral(
        (eb) => eb.selectFrom("orders_patients").select(sql<number>`1`.as("found")).whereRef("orders_patients.order_id", "=", "orders.id").where("orders_patients.patient_name", "ilike", pattern).limit(1).as("patient"),
        (join) => join.onTrue(),
      )
      .where((eb) => eb.or([eb("orders.full_name", "ilike", pattern), eb("patient.found", "is not", null)]));
  }
  const newest = query.sort === "newest";
  if (query.after) {
    const { createdAt, id } = query.after;
    rows = rows.where(newest ? sql<boolean>`(orders.created_at, orders.id) < (${createdAt}::timestamptz, ${id}::uuid)` : sql<boolean>`(orders.created_at, orders.id) > (${createdAt}::timestamptz, ${id}::uuid)`);
  }
  return rows
    .orderBy("orders.created_at", newest ? "desc" : "asc")
    .orderBy("orders.id", newest ? "desc" : "asc")
    .limit(plannedCount(CABINET_PAGE_SIZE + 1))
    .execute();
}

/** The client's orders counted by status (the erasure page's counts: one range of the cabinet's index). */
export function clientOrdersByStatus(db: DB, email: string) {
  return db.selectFrom("orders").select(["status", (eb) => eb.fn.countAll<string>().as("count")]).where("email", "=", email).groupBy("status").execute();
}
