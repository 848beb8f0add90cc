import { type ExpressionBuilder, sql } from "kysely";
import type { Database, FileType, QueueEntry, QueueStatus } from "~db/schema";
import type { DB } from "~/modules/db/db.server";
import { PAID_SET } from "./status";

/**
 * The queue of files to the production file server as the orders decide it (DESIGN §4.15–4.16): an
 * entry is due once its order is in the paid set or staff released it, and the back-office lists the
 * queue by order. The queue's own statements (lease, complete, fail, release) are ftp/queue.server.ts.
 */

export interface QueueLimits {
  leaseSeconds: number;
  maxAttempts: number;
}

/** A claimed entry, with the status it had before (an `uploading` one was interrupted). */
export type ClaimedEntry = QueueEntry & { previous_status: QueueStatus };

/**
 * The due entries not yet delivered, as the partial index `ftp_uploads_queue_due_open_idx` holds them
 * (ADR 092): `due` is kept by the database as the order enters or leaves the paid set or staff release
 * an entry, so the entries of drafts, unpaid and cancelled orders are never read. Literals, not
 * parameters: a prepared statement's generic plan uses a partial index only when its query names the
 * index's condition itself.
 */
const OPEN_DUE = sql<boolean>`q.due and q.status in ('pending', 'uploading', 'failed')`;

/** Claims up to `limit` due entries for `workerId`, oldest due first. */
export async function claimDueEntries(db: DB, workerId: string, limit: number, limits: QueueLimits): Promise<ClaimedEntry[]> {
  const result = await sql<ClaimedEntry>`
    with due as (
      select q.id, q.status as previous_status
        from ftp_uploads_queue q
       where ${OPEN_DUE}
         and q.removed_at is null
         and q.set_aside_at is null
         and q.attempts < ${limits.maxAttempts}
         and ((q.status in ('pending', 'failed') and q.next_attempt_at <= now())
              or (q.status = 'uploading' and q.locked_until < now()))
       order by q.next_attempt_at, q.created_at, q.id
       limit ${limit}
       for update of q skip locked
    )
    update ftp_uploads_queue q
       set status = 'uploading',
           locked_by = ${workerId},
           locked_until = now() + make_interval(secs => ${limits.leaseSeconds}),
           attempts = q.attempts + 1,
           last_attempt_at = now()
      from due
     where q.id = due.id
    returning q.*, due.previous_status`.execute(db);
  return result.rows;
}

/** Entries still to deliver (paid or released, not completed, attempts left), due now or later. */
export async function countRemaining(db: DB, maxAttempts: number): Promise<number> {
  const row = await sql<{ n: number }>`
    select count(*)::int as n
      from ftp_uploads_queue q
     where ${OPEN_DUE}
       and q.removed_at is null
       and q.set_aside_at is null
       and (q.attempts < ${maxAttempts} or q.status = 'uploading')`.execute(db);
  return Number(row.rows[0]?.n ?? 0);
}

/**
 * How long the longest-waiting file of a paid (or staff-released) order has waited to be delivered,
 * in seconds (null when none waits): since it was uploaded, or since its order was paid (or staff
 * released it), whichever is later. A gauge of the metrics (ADR 073).
 */
export async function oldestDueSeconds(db: DB): Promise<number | null> {
  const oldest = await sql<{ seconds: number | null }>`
    select extract(epoch from now() - min(greatest(q.created_at, coalesce(o.paid_at, q.released_at, q.created_at))))::float8 as seconds
      from ftp_uploads_queue q
      join orders o on o.id = q.order_id
     where ${OPEN_DUE}
       and q.removed_at is null
       and q.set_aside_at is null`.execute(db);
  return oldest.rows[0]?.seconds ?? null;
}

/**
 * Whether staff may send an entry now (ADR 068): it exists, is not delivered, and its order is paid or
 * the entry was released before. A draft's or an unpaid order's files go after payment; a file set
 * aside by the doctor's skip never goes (ADR 087).
 */
export async function entrySendable(db: DB, id: string): Promise<"ok" | "not_found" | "not_due"> {
  const row = await db
    .selectFrom("ftp_uploads_queue as q")
    .innerJoin("orders as o", "o.id", "q.order_id")
    .select(["o.status as order_status", "q.released_at", "q.set_aside_at"])
    .where("q.id", "=", id)
    .executeTakeFirst();
  if (!row) return "not_found";
  // A file the doctor's skip set aside is not in the order (ADR 087): nobody sends it.
  if (row.set_aside_at !== null) return "not_due";
  return PAID_SET.includes(row.order_status) || row.released_at !== null ? "ok" : "not_due";
}

/** A filter of the back-office's queue list: the entries' statuses and file type, the page's order cursor. */
export interface QueueOrderFilter {
  statuses: readonly QueueStatus[];
  type: FileType | "all";
  /** Keyset paging by order (ADR 068): the orders after this one (the next page)… */
  after: string | null;
  /** …or the orders before this one (the previous page). */
  before: string | null;
}

/** How much one page of the list reads: orders per page, and the caps of the entries' and orders' counts. */
export interface QueueOrderLimits {
  perPage: number;
  entryCap: number;
  orderCap: number;
}

/** The filter's entries of placed orders (not drafts, not set aside), as ftp_uploads_queue_placed_idx holds them. */
function placedEntries(db: DB, filter: Pick<QueueOrderFilter, "type">, status: QueueStatus | readonly QueueStatus[]) {
  let entries = db.selectFrom("ftp_uploads_queue as q").where("q.set_aside_at", "is", null).where("q.of_draft", "=", false);
  entries = typeof status === "string" ? entries.where("q.status", "=", status) : entries.where("q.status", "in", status);
  if (filter.type !== "all") entries = entries.where("q.file_type", "=", filter.type);
  return entries;
}

/**
 * How many placed orders have entries in the filter, up to `limit`: each state's orders read in the
 * index's order and stopped at the limit (a state is one range of the index, its orders distinct as
 * they come), the states' sets joined without repeats. At most `limit` × states index entries.
 */
async function countPlacedOrders(db: DB, filter: QueueOrderFilter, limit: number) {
  // Each state's part a subquery of its own: its order and limit are its own, not the union's.
  const parts = filter.statuses.map((status) => db.selectFrom(placedEntries(db, filter, status).select("q.order_id").distinct().orderBy("q.order_id").limit(limit).as("part")).select("part.order_id"));
  const [first, ...rest] = parts;
  if (!first) return { n: 0 };
  const union = rest.reduce((all, part) => all.union(part), first);
  return db.selectFrom(union.as("u")).select(sql<number>`count(*)::int`.as("n")).executeTakeFirstOrThrow();
}

/**
 * The orders of one page of the back-office queue list by order (ADR 068): the orders that have
 * entries in the filter, newest first, drafts left out (their files are not due: they go only after
 * payment), paged by keyset on the order's (created_at, id) so a late page costs what the first
 * does. The entries and orders of the filter are counted up to the caps (`capped` says there are more).
 */
export async function queueOrderPage(db: DB, filter: QueueOrderFilter, limits: QueueOrderLimits) {
  const statuses = [...filter.statuses];
  const hasEntries = (eb: ExpressionBuilder<Database, "orders">) => {
    let entries = eb.selectFrom("ftp_uploads_queue as q").select(sql<number>`1`.as("one")).whereRef("q.order_id", "=", "orders.id").where("q.status", "in", statuses).where("q.set_aside_at", "is", null).where("q.of_draft", "=", false);
    if (filter.type !== "all") entries = entries.where("q.file_type", "=", filter.type);
    return eb.exists(entries);
  };
  const ordersOfFilter = () => db.selectFrom("orders").where("orders.status", "!=", "draft").where(hasEntries);

  // The cursor is an order of the list; an order deleted meanwhile starts the list over.
  const cursorId = filter.after ?? filter.before;
  const cursor = cursorId ? await db.selectFrom("orders").select("id").where("id", "=", cursorId).executeTakeFirst() : undefined;
  const backwards = Boolean(cursor && filter.before);
  let page = ordersOfFilter().select(["orders.id", "orders.code", "orders.status", "orders.full_name", "orders.email", "orders.created_at"]);
  // Compared in the database: its timestamps are finer than a JavaScript date.
  if (cursor) page = page.where(sql<boolean>`(orders.created_at, orders.id) ${sql.raw(backwards ? ">" : "<")} (select c.created_at, c.id from orders c where c.id = ${cursor.id})`);
  const direction = backwards ? "asc" : "desc";
  const [found, entriesCounted, ordersCounted] = await Promise.all([
    page.orderBy("orders.created_at", direction).orderBy("orders.id", direction).limit(limits.perPage + 1).execute(),
    // The filter's entries and orders, counted up to their caps from the placed orders' index
    // (ftp_uploads_queue_placed_idx, ADR 106): never the drafts' uploads, never a join of the orders.
    db.selectFrom(placedEntries(db, filter, filter.statuses).select(sql<number>`1`.as("one")).limit(limits.entryCap + 1).as("capped")).select(sql<number>`count(*)::int`.as("n")).executeTakeFirstOrThrow(),
    countPlacedOrders(db, filter, limits.orderCap + 1),
  ]);
  const more = found.length > limits.perPage;
  const orders = found.slice(0, limits.perPage);
  if (backwards) orders.reverse();
  return { orders, more, backwards, cursor: Boolean(cursor), entryCount: Number(entriesCounted.n), orderCount: Number(ordersCounted.n) };
}
