import { type RawBuilder, type Selectable, sql } from "kysely";
import type { OrderPackingsTable, OrderStatus, OrderStatusHistoryTable } from "~db/schema";
import { type DB, plannedCount } from "~/modules/db/db.server";
import { type KeysetCast, keysetTimestamp, pastCursor, usableCursor } from "~/modules/db/keyset.server";
import { type Cursor, encodeCursor, endOfDay, type ListMarket, type SortDirection, startOfDay } from "~/modules/http/request/list-query";
import { fileCountOf } from "./files.server";
import { foundBySearch } from "./order-search.server";
import { ORDER_STATUSES, PAID_SET } from "./status";
import { statusCountsQuery, tabCount } from "./status-counts.server";

/**
 * Staff's list of orders (staff side §2 "/backoffice", ADR 066, 067): the orders of a tab under the
 * filter's dates, market and "empty" switch, counted up to a cap, one keyset page at a time in one of
 * three sorts, with the cards' histories, packing marks and payments on the page's rows; the
 * patients of a page's orders; the paid orders of the statistics' windows. The dashboard (backoffice/dashboard.server.ts) and the order's own page read them.
 */

/** The filter's part every tab shares; `statuses` is the tab's (null: every status). */
export interface WorkListFilter {
  statuses: readonly OrderStatus[] | null;
  /** Created on or after / before the end of (dates as YYYY-MM-DD), or null. */
  from: string | null;
  to: string | null;
  market: ListMarket | null;
  /** Orders without patients are hidden unless asked for. */
  showEmpty: boolean;
  /** Only the orders whose thread waits for the lab (ADR 104). */
  waitingOnLab?: boolean;
}

/** "waiting": the longest-waiting first, by the thread's row (ADR 104). */
export type WorkListSort = "date" | "total" | "status" | "waiting";

export interface WorkListPageQuery extends WorkListFilter {
  /** Order number (its first characters), client name, e-mail or phone; a search lists newest first. */
  search: string;
  sort: WorkListSort;
  dir: SortDirection;
  /** Names the page ("21–30"); where it starts is the cursor's alone (ADR 091). */
  page: number;
  /** Keyset: the page starts after / ends before the row with these sort values (null: the first page). */
  after: Cursor | null;
  before: Cursor | null;
}

/** The orders of the filter's dates, market and "empty" switch, in its statuses (all when null). */
function ordersWhere(db: DB, filter: WorkListFilter) {
  let query = db.selectFrom("orders");
  if (filter.statuses) query = query.where("orders.status", "in", [...filter.statuses]);
  if (filter.from) query = query.where("orders.created_at", ">=", startOfDay(filter.from));
  if (filter.to) query = query.where("orders.created_at", "<", endOfDay(filter.to));
  if (filter.market) query = query.where("orders.market", "=", filter.market);
  if (!filter.showEmpty) query = query.where((eb) => eb.exists(eb.selectFrom("orders_patients").select("id").whereRef("orders_patients.order_id", "=", "orders.id")));
  // The thread's own row, by its partial index: never the messages (ADR 104).
  if (filter.waitingOnLab) query = query.where((eb) => eb.exists(eb.selectFrom("order_threads").select("order_threads.order_id").whereRef("order_threads.order_id", "=", "orders.id").where("order_threads.waiting_on", "=", "lab")));
  return query;
}

/** How many orders each tab holds under the filter (`tabs`: name and statuses), each counted up to `cap`, in one statement. */
export async function countWorkListTabs<Tab extends string>(
  db: DB,
  filter: Omit<WorkListFilter, "statuses">,
  tabs: ReadonlyArray<readonly [Tab, readonly OrderStatus[] | null]>,
  cap: number,
): Promise<Record<Tab, number>> {
  const statusesOf = (statuses: readonly OrderStatus[] | null) => statuses ?? ORDER_STATUSES;
  const counted = [...new Set(tabs.flatMap(([, statuses]) => statusesOf(statuses)))];
  const rows = await statusCountsQuery(db, counted, ordersWhere(db, { ...filter, statuses: null }), cap).execute();
  const counts = new Map(rows.map((row) => [row.status, Number(row.count)]));
  return Object.fromEntries(tabs.map(([tab, statuses]) => [tab, tabCount(counts, statusesOf(statuses), cap)])) as Record<Tab, number>;
}

/** How many orders wait for the lab's answer under the filter (ADR 104), counted up to `cap + 1`. */
export async function countWaitingOnLab(db: DB, filter: Omit<WorkListFilter, "statuses" | "waitingOnLab">, cap: number): Promise<number> {
  const capped = ordersWhere(db, { ...filter, statuses: null, waitingOnLab: true }).select(sql<number>`1`.as("one")).limit(plannedCount(cap + 1));
  const row = await db.selectFrom(capped.as("capped")).select(sql<number>`count(*)::int`.as("count")).executeTakeFirstOrThrow();
  return Number(row.count);
}

/** The paid orders of the last `days` ("current") and the `days` before ("previous"), counted and summed per currency. */
export function paidOrderWindows(db: DB, days: number) {
  return db
    .selectFrom("orders")
    .select([
      "currency",
      sql<"current" | "previous">`case when created_at >= now() - make_interval(days => ${days}) then 'current' else 'previous' end`.as("window"),
      sql<number>`count(*)::int`.as("count"),
      sql<number>`coalesce(sum(total_cost), 0)::bigint`.as("revenue"),
    ])
    .where("status", "in", [...PAID_SET])
    .where("created_at", ">=", sql<Date>`now() - make_interval(days => ${2 * days})`)
    .where("created_at", "<=", sql<Date>`now()`)
    .groupBy(["currency", sql`2`]);
}

/** The statuses in their own order (the index `orders_status_rank_idx` has the same expression). */
const STATUS_RANK = sql<number>`(case orders.status when 'draft' then 0 when 'pending' then 1 when 'paid' then 2 when 'processing' then 3 when 'shipped' then 4 when 'completed' then 5 else 6 end)`;
const TOTAL_KEY = sql<number>`coalesce(orders.total_cost, 0)`;
/** Since when the order's thread waits (one probe of `order_threads` by its key). */
const WAITING_KEY = sql<string>`(select t.waiting_since from order_threads t where t.order_id = orders.id)`;

/**
 * Each sort's keyset (ADR 067, 091): the expressions a page is ordered by, the id last so no two rows
 * tie, and how a cursor's values are cast back and checked (a forged cursor reads as none).
 */
const KEYSETS: Record<WorkListSort, { keys: RawBuilder<unknown>[]; casts: KeysetCast[] }> = {
  date: { keys: [sql`orders.created_at`, sql`orders.id`], casts: ["timestamptz", "uuid"] },
  total: { keys: [TOTAL_KEY, sql`orders.id`], casts: ["bigint", "uuid"] },
  status: { keys: [STATUS_RANK, sql`orders.created_at`, sql`orders.id`], casts: ["int", "timestamptz", "uuid"] },
  waiting: { keys: [WAITING_KEY, sql`orders.id`], casts: ["timestamptz", "uuid"] },
};

/** How a cursor of the sort holds its values: an address whose cursor is not of them is an old `?page=N` one (ADR 091). */
export const workListCursorCasts = (sort: WorkListSort): readonly KeysetCast[] => KEYSETS[sort].casts;

/** A status change as a card's history lists it, read with the page's rows (times as ISO text, to the millisecond). */
export type HistoryRecord = Pick<Selectable<OrderStatusHistoryTable>, "id" | "from_status" | "to_status" | "actor" | "note" | "tracking_number" | "carrier" | "undoes"> & { created_at: string };

/** The packer's mark of an order, read with the page's rows. */
export type PackingRecord = Pick<Selectable<OrderPackingsTable>, "actor" | "from_status" | "to_status" | "missing_reason"> & { created_at: string; missing_bags: number };

const ISO_MS = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;

/**
 * What a card shows of an order from other tables, read with the page's rows rather than one
 * statement each: whether a payment ever succeeded (DESIGN §4.7), its history and its packing mark.
 */
const cardExtras = [
  sql<boolean>`exists (select 1 from payments where payments.order_id = orders.id and payments.status = 'succeeded')`.as("ever_paid"),
  sql<HistoryRecord[]>`coalesce((select jsonb_agg(jsonb_build_object('id', h.id::text, 'from_status', h.from_status, 'to_status', h.to_status, 'actor', h.actor, 'note', h.note, 'tracking_number', h.tracking_number, 'carrier', h.carrier, 'undoes', h.undoes::text, 'created_at', to_char(h.created_at at time zone 'UTC', ${sql.raw(ISO_MS)})) order by h.created_at, h.id) from order_status_history h where h.order_id = orders.id), '[]'::jsonb)`.as("history"),
  sql<PackingRecord | null>`(select jsonb_build_object('actor', k.actor, 'from_status', k.from_status, 'to_status', k.to_status, 'missing_bags', k.missing_bags, 'missing_reason', k.missing_reason, 'created_at', to_char(k.created_at at time zone 'UTC', ${sql.raw(ISO_MS)})) from order_packings k where k.order_id = orders.id)`.as("packing"),
];

/**
 * A pending order's latest unpaid bank-transfer invoice (ADR 072), by its number: the order waits
 * for a transfer, not a card. One probe of the invoices' (order_id, created_at) index per row.
 */
const awaitedTransfer = sql<string | null>`(select i.number::text from invoices i where i.order_id = orders.id and i.paid_at is null and orders.status = 'pending' order by i.created_at desc limit 1)`.as("transfer_invoice");

/** The company the order's latest invoice names: the clinic, where it asked for one (the table's "Клиника"). */
const invoiceCompany = sql<string | null>`(select i.client_company from invoices i where i.order_id = orders.id order by i.created_at desc limit 1)`.as("invoice_company");

/**
 * One page of the list (`pageSize` orders), in the query's sort, with whether more follow and the
 * cursors of its first and last row (ADR 067). Only what the cards show: a row of orders has some 40 columns.
 * With `cards`, each row also brings its card's history, packing mark and whether it was ever paid.
 */
export async function workListPage(db: DB, query: WorkListPageQuery, pageSize: number, { cards = false }: { cards?: boolean } = {}) {
  const keyset = KEYSETS[query.sort];
  const cursor = query.after ?? query.before;
  const usable = usableCursor(cursor, keyset.casts);
  // Backwards (`before`) reads the other way round from the cursor, then turns the rows back.
  const backwards = Boolean(usable && query.before);
  const descending = (query.dir === "desc") !== backwards;
  const filtered = () => {
    const orders = ordersWhere(db, query);
    if (!usable) return orders;
    return orders.where(pastCursor(keyset.keys, usable, keyset.casts, descending));
  };
  // No OFFSET: without a cursor this is the first page (an old `?page=N` address is redirected to its
  // cursor first, `oldPageRedirect`, ADR 091); a page after a cursor skips no row.
  let page = filtered()
    .select([
      "id",
      "status",
      "created_at",
      "full_name",
      "email",
      "phone",
      "address",
      "delivery_comment",
      "additional_comments",
      "total_cost",
      "currency",
      "tracking_number",
      "paid_at",
      "parcel_received_at",
      "parcel_received_by",
    ])
    .select([keysetTimestamp(sql`orders.created_at`).as("created_key"), TOTAL_KEY.as("total_key"), STATUS_RANK.as("status_rank"), awaitedTransfer])
    // The thread's row (ADR 104): what the lab has not read, and since when the order waits for it.
    .select([sql<number | null>`(select t.lab_unread from order_threads t where t.order_id = orders.id)`.as("lab_unread"), keysetTimestamp(WAITING_KEY).as("waiting_key")])
    // The table's one figure from another table, read for the page's rows only; the cards read their patients whole.
    .$if(!cards, (rows) => rows.select([sql<number>`(select count(*)::int from orders_patients where orders_patients.order_id = orders.id)`.as("patient_count"), invoiceCompany]))
    .$if(cards, (rows) => rows.select(cardExtras));
  // A search reads, per way of matching, at most the orders up to this page (ADR 042).
  if (query.search) page = page.where(await foundBySearch(db, query.search, { phone: true }, filtered, pageSize + 1));
  for (const key of keyset.keys) page = page.orderBy(key, descending ? "desc" : "asc");
  const read = await page.limit(plannedCount(pageSize + 1)).execute();
  const more = read.length > pageSize;
  const rows = backwards ? read.slice(0, pageSize).reverse() : read;
  const cursorOf = (row: (typeof read)[number]) =>
    encodeCursor(
      query.sort === "date"
        ? [row.created_key, row.id]
        : query.sort === "total"
          ? [Number(row.total_key), row.id]
          : query.sort === "waiting"
            ? [row.waiting_key, row.id]
            : [Number(row.status_rank), row.created_key, row.id],
    );
  const orders = rows.slice(0, pageSize);
  return {
    orders,
    // Backwards, the rows after this page are the ones the staff member came from.
    hasMore: backwards ? true : more,
    cursors: {
      next: orders.length ? cursorOf(orders[orders.length - 1]) : null,
      previous: orders.length ? cursorOf(orders[0]) : null,
    },
  };
}

/** The patients of these orders as their cards show them: choices, and how many files of each kind (the database counts). */
export function patientCardsOf(db: DB, orderIds: readonly string[]) {
  return db
    .selectFrom("orders_patients")
    .select(["id", "order_id", "patient_name", "folder_name", "material_type", "cut_type", "matrix_type", "additional_comments", "skip_matrix", "skip_aligners", "skip_retainers"])
    // The cards show counts: the database counts, the file lists stay where they are.
    .select([fileCountOf("matrix").as("matrix_count"), fileCountOf("aligners").as("aligners_count"), fileCountOf("retainer").as("retainer_count")])
    .where("order_id", "in", [...orderIds])
    .orderBy("created_at")
    .orderBy("folder_name")
    .execute();
}
