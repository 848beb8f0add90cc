import { type Expression, type ExpressionBuilder, sql, type SqlBool } from "kysely";
import type { Currency, Database, NotificationChannel, OrderStatus, PaymentReceipt } from "~db/schema";
import { type DB, plannedCount } from "~/modules/db/db.server";
import { keysetTimestamp } from "~/modules/db/keyset.server";
import { inOrder } from "./files.server";
import { containsPattern, fewMatches } from "./order-search.server";
import { isShortSearch } from "./search-length";
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

type OrdersBuilder = ExpressionBuilder<Database, "orders">;

/**
 * Past this many of a clinic's matches a text counts as common in that clinic, and its page walks
 * the clinic's newest orders: with this many matches among a clinic's orders the walk fills a page
 * of 20 within about 20 / (CLINIC_COMMON_MATCHES / the clinic's orders) of them, and up to it the
 * matches read are few. The lab-wide search's threshold (COMMON_MATCHES, 2,000) made a common text
 * read 2,000 trigram matches before a walk that finds a page in its first rows (ADR 098).
 */
export const CLINIC_COMMON_MATCHES = 500;

/**
 * The cabinet's search within one clinic's orders (ADR 098): the order's client name or a
 * patient's name containing the text, any case. Each way of matching first asks its index keyed by
 * the clinic's e-mail (`orders_email_full_name_trgm_idx`, `orders_patients_email_name_trgm_idx`)
 * for the clinic's matches: a few (up to CLINIC_COMMON_MATCHES) are the page's candidates by id, read
 * whatever the clinic holds; many mean the text is common in this clinic, and the page walks its
 * newest orders testing each, where matches are dense enough to fill a page soon. A text too short
 * for a trigram is tested on the walk alone.
 */
async function clinicSearch(db: DB, email: string, text: string): Promise<(eb: OrdersBuilder) => Expression<SqlBool>> {
  const pattern = containsPattern(text);
  // On the walk each order probes its own patients (orders_patients_order_idx) for one match: a
  // scalar subquery, which the planner runs per row, where EXISTS under OR may become the lab's
  // matching patients read whole into a hash (460–480 ms for "ова" on a tenth of five years).
  const patientsWalk = () =>
    sql<SqlBool>`(select 1 from orders_patients p where p.order_id = orders.id and p.patient_name ilike ${pattern} limit 1) is not null`;
  const ownWalk = (eb: OrdersBuilder) => eb("orders.full_name", "ilike", pattern);
  if (isShortSearch(text)) return (eb) => eb.or([ownWalk(eb), patientsWalk()]);
  const [ownIds, patientOrderIds] = await Promise.all([
    fewMatches(db, db.selectFrom("orders").select("orders.id").where("orders.email", "=", email).where("orders.full_name", "ilike", pattern), CLINIC_COMMON_MATCHES),
    fewMatches(db, db.selectFrom("orders_patients").select("orders_patients.order_id as id").where("orders_patients.order_email", "=", email).where("orders_patients.patient_name", "ilike", pattern), CLINIC_COMMON_MATCHES),
  ]);
  return (eb) => {
    const branches: Expression<SqlBool>[] = [];
    for (const [ids, walk] of [
      [ownIds, ownWalk],
      [patientOrderIds, patientsWalk],
    ] as const) {
      if (ids === null) branches.push(walk(eb));
      else if (ids.length > 0) branches.push(eb("orders.id", "in", ids));
    }
    return branches.length ? eb.or(branches) : sql<SqlBool>`false`;
  };
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
 * patient's name, any case, within this client's orders only (`clinicSearch`): a clinic of any size
 * never reads other clinics' patients, nor probes every order of its own (ADR 042, 098).
 */
export async function listCabinetOrders(db: DB, email: string, query: ClientOrderQuery) {
  let rows = clientOrders(db, email, query.status).select([
    "orders.id",
    "orders.status",
    "orders.created_at",
    // The page's cursor holds the time as the keyset encoding writes it (ADR 091): UTC to the microsecond.
    keysetTimestamp(sql`orders.created_at`).as("cursor_time"),
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
  if (query.search) rows = rows.where(await clinicSearch(db, email, query.search));
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
