import { type ExpressionBuilder, type Selectable, sql } from "kysely";
import type { DB } from "~/modules/db/db.server";
import { PAID_SET } from "~/modules/orders/status";
import type { Database as DatabaseTables, OrderStatus, QueueEntry, QueueStatus } from "~db/schema";
import { QUEUE_COUNT_CAP, QUEUE_ORDER_COUNT_CAP, QUEUE_ORDERS_PER_PAGE, STATUSES_OF_FILTER, type QueueFilters } from "./queue";

/**
 * The production file server queue in the database (DESIGN §4.15–4.16). Every state change is one
 * statement guarded by who holds the entry, so any number of workers (processes, machines, the
 * cron route, a staff member's "send now") can share the queue:
 *
 * - an entry is **due** when its order is in the paid set or staff released it, it is pending or
 *   failed with `next_attempt_at` reached and attempts left, or it is uploading with an expired lease
 *   (its worker died);
 * - a worker **claims** due entries with `FOR UPDATE SKIP LOCKED`: status `uploading`, `locked_by`,
 *   a lease (`locked_until`), `attempts + 1`, `last_attempt_at`. The worker renews the lease while
 *   it transfers, so a live worker never loses an entry;
 * - only the holder (`locked_by`, still `uploading`) may complete, fail or release it.
 */

export interface QueueLimits {
  leaseSeconds: number;
  maxAttempts: number;
}

/** A claimed entry, with the status it had before (an `uploading` one was interrupted). */
export type ClaimedEntry = QueueEntry & { previous_status: QueueStatus };

const paidSet = sql.join([...PAID_SET]);

/** Claims up to `limit` due entries for `workerId`, oldest due first. */
export async function claimDueEntries(db: DB, workerId: string, limit: number, limits: QueueLimits): Promise<ClaimedEntry[]> {
  const result = await sql<ClaimedEntry>`
    with due as (
      select q.id, q.status as previous_status
        from ftp_uploads_queue q
        join orders o on o.id = q.order_id
       where q.removed_at is null
         and q.attempts < ${limits.maxAttempts}
         and (o.status in (${paidSet}) or q.released_at is not null)
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

export type StaffClaim =
  | { ok: true; entry: ClaimedEntry }
  | { ok: false; reason: "not_found" | "completed" | "busy" };

/**
 * Staff's "send now" (staff-partner-packer §2, §4): any entry that is not completed, paid or not,
 * whatever its attempts, unless another worker holds a live lease on it. The entry is also marked
 * released, so if this attempt fails the workers retry it like an entry of a paid order.
 */
export async function claimEntryForStaff(db: DB, id: string, workerId: string, staffLabel: string, limits: QueueLimits): Promise<StaffClaim> {
  const result = await sql<ClaimedEntry>`
    with target as (
      select id, status as previous_status from ftp_uploads_queue where id = ${id} for update
    )
    update ftp_uploads_queue q
       set status = 'uploading',
           locked_by = ${workerId},
           locked_until = now() + make_interval(secs => ${limits.leaseSeconds}),
           attempts = q.attempts + 1,
           last_attempt_at = now(),
           released_at = now(),
           released_by = ${staffLabel}
      from target
     where q.id = target.id
       and q.status <> 'completed'
       and not (q.status = 'uploading' and q.locked_until >= now())
    returning q.*, target.previous_status`.execute(db);
  const entry = result.rows[0];
  if (entry) return { ok: true, entry };
  const current = await db.selectFrom("ftp_uploads_queue").select("status").where("id", "=", id).executeTakeFirst();
  if (!current) return { ok: false, reason: "not_found" };
  return { ok: false, reason: current.status === "completed" ? "completed" : "busy" };
}

/** Extends the leases of the entries this worker still holds; returns the ids it still holds. */
export async function renewLeases(db: DB, workerId: string, ids: string[], leaseSeconds: number): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .updateTable("ftp_uploads_queue")
    .set({ locked_until: sql<Date>`now() + make_interval(secs => ${leaseSeconds})` })
    .where("id", "in", ids)
    .where("locked_by", "=", workerId)
    .where("status", "=", "uploading")
    .returning("id")
    .execute();
  return new Set(rows.map((row) => row.id));
}

/** Marks a held entry delivered. False when this worker no longer held it. */
export async function completeEntry(db: DB, id: string, workerId: string): Promise<boolean> {
  const result = await db
    .updateTable("ftp_uploads_queue")
    .set({ status: "completed", completed_at: sql<Date>`now()`, locked_until: null, error_message: null })
    .where("id", "=", id)
    .where("locked_by", "=", workerId)
    .where("status", "=", "uploading")
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Records a failed attempt; the entry is due again after `retryInMs` while attempts are left. */
export async function failEntry(db: DB, id: string, workerId: string, message: string, retryInMs: number): Promise<boolean> {
  const result = await db
    .updateTable("ftp_uploads_queue")
    .set({
      status: "failed",
      error_message: message.slice(0, 2000),
      locked_until: null,
      next_attempt_at: sql<Date>`now() + make_interval(secs => ${retryInMs / 1000})`,
    })
    .where("id", "=", id)
    .where("locked_by", "=", workerId)
    .where("status", "=", "uploading")
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Gives a held entry back untouched (the worker is shutting down): due again at once, and the
 * interrupted attempt does not count.
 */
export async function releaseEntry(db: DB, id: string, workerId: string): Promise<boolean> {
  const result = await db
    .updateTable("ftp_uploads_queue")
    .set({
      status: sql<QueueStatus>`case when error_message is null then 'pending' else 'failed' end`,
      attempts: sql<number>`greatest(attempts - 1, 0)`,
      locked_until: null,
      next_attempt_at: sql<Date>`now()`,
    })
    .where("id", "=", id)
    .where("locked_by", "=", workerId)
    .where("status", "=", "uploading")
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export const INTERRUPTED_MESSAGE = "Transfer interrupted: the worker stopped before the file was complete (lease expired)";

/**
 * Entries whose worker died on their last allowed attempt are never claimed again; they become
 * failed (waiting for staff) instead of showing "uploading" forever.
 */
export async function failInterruptedExhausted(db: DB, maxAttempts: number): Promise<number> {
  const result = await db
    .updateTable("ftp_uploads_queue")
    .set({ status: "failed", error_message: INTERRUPTED_MESSAGE, locked_until: null })
    .where("status", "=", "uploading")
    .where("locked_until", "<", sql<Date>`now()`)
    .where("attempts", ">=", maxAttempts)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Entries still to deliver (paid or released, not completed, attempts left), due now or later. */
export async function countRemaining(db: DB, maxAttempts: number): Promise<number> {
  const row = await db
    .selectFrom("ftp_uploads_queue as q")
    .innerJoin("orders as o", "o.id", "q.order_id")
    .select(sql<number>`count(*)::int`.as("n"))
    .where("q.removed_at", "is", null)
    // Named statuses rather than "not completed": the index on status finds the few undelivered
    // entries among a million delivered ones.
    .where("q.status", "in", ["pending", "uploading", "failed"])
    .where((eb) => eb.or([eb("q.attempts", "<", maxAttempts), eb("q.status", "=", "uploading")]))
    .where((eb) => eb.or([eb("o.status", "in", PAID_SET), eb("q.released_at", "is not", null)]))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** An order of the back-office list with the entries of the filter beneath it (ADR 068). */
export interface QueueOrderGroup {
  id: string;
  code: string;
  status: OrderStatus;
  clinic: string | null;
  email: string | null;
  createdAt: Date;
  entries: QueueViewRow[];
}

type QueueViewRow = Selectable<DatabaseTables["ftp_uploads_view"]>;

/**
 * One page of the back-office list by order (ADR 068): the orders that have entries in the filter,
 * newest first, drafts left out (their files are not due: they go only after payment), paged by
 * keyset on the order's (created_at, id) so a late page costs what the first does; then the filter's
 * entries of those orders only, each order's in upload order. The entries and orders of the filter are
 * counted up to QUEUE_COUNT_CAP and QUEUE_ORDER_COUNT_CAP (`capped` says there are more).
 */
export async function listQueueByOrder(db: DB, filters: QueueFilters) {
  const statuses = STATUSES_OF_FILTER[filters.status];
  const hasEntries = (eb: ExpressionBuilder<DatabaseTables, "orders">) => {
    let entries = eb.selectFrom("ftp_uploads_queue as q").select(sql<number>`1`.as("one")).whereRef("q.order_id", "=", "orders.id").where("q.status", "in", statuses);
    if (filters.type !== "all") entries = entries.where("q.file_type", "=", filters.type);
    return eb.exists(entries);
  };
  const ordersOfFilter = () => db.selectFrom("orders").where("orders.status", "!=", "draft").where(hasEntries);

  // The cursor is an order of the list; an order deleted meanwhile starts the list over.
  const cursorId = filters.after ?? filters.before;
  const cursor = cursorId ? await db.selectFrom("orders").select("id").where("id", "=", cursorId).executeTakeFirst() : undefined;
  const backwards = Boolean(cursor && filters.before);
  let page = ordersOfFilter().select(["orders.id", "orders.code", "orders.status", "orders.full_name", "orders.email", "orders.created_at"]);
  // Compared in the database: its timestamps are finer than a JavaScript date.
  if (cursor) page = page.where(sql<boolean>`(orders.created_at, orders.id) ${sql.raw(backwards ? ">" : "<")} (select c.created_at, c.id from orders c where c.id = ${cursor.id})`);
  const direction = backwards ? "asc" : "desc";
  const [found, entriesCounted, ordersCounted] = await Promise.all([
    page.orderBy("orders.created_at", direction).orderBy("orders.id", direction).limit(QUEUE_ORDERS_PER_PAGE + 1).execute(),
    (() => {
      let entries = db
        .selectFrom("ftp_uploads_queue as q")
        .innerJoin("orders as o", "o.id", "q.order_id")
        .select(sql<number>`1`.as("one"))
        .where("q.status", "in", statuses)
        .where("o.status", "!=", "draft");
      if (filters.type !== "all") entries = entries.where("q.file_type", "=", filters.type);
      return db.selectFrom(entries.limit(QUEUE_COUNT_CAP + 1).as("capped")).select(sql<number>`count(*)::int`.as("n")).executeTakeFirstOrThrow();
    })(),
    db.selectFrom(ordersOfFilter().select(sql<number>`1`.as("one")).limit(QUEUE_ORDER_COUNT_CAP + 1).as("capped")).select(sql<number>`count(*)::int`.as("n")).executeTakeFirstOrThrow(),
  ]);
  const more = found.length > QUEUE_ORDERS_PER_PAGE;
  const orders = found.slice(0, QUEUE_ORDERS_PER_PAGE);
  if (backwards) orders.reverse();
  const entriesOf = (ids: string[]) => {
    let entries = db.selectFrom("ftp_uploads_view").selectAll().where("order_id", "in", ids).where("status", "in", statuses);
    if (filters.type !== "all") entries = entries.where("file_type", "=", filters.type);
    return entries.orderBy("created_at").orderBy("id").execute();
  };
  const rows = orders.length ? await entriesOf(orders.map((order) => order.id)) : [];
  const entryCount = Number(entriesCounted.n);
  const orderCount = Number(ordersCounted.n);
  return {
    groups: orders.map(
      (order): QueueOrderGroup => ({
        id: order.id,
        code: order.code,
        status: order.status,
        clinic: order.full_name,
        email: order.email,
        createdAt: order.created_at,
        entries: rows.filter((row) => row.order_id === order.id),
      }),
    ),
    entries: { total: Math.min(entryCount, QUEUE_COUNT_CAP), capped: entryCount > QUEUE_COUNT_CAP },
    orders: { total: Math.min(orderCount, QUEUE_ORDER_COUNT_CAP), capped: orderCount > QUEUE_ORDER_COUNT_CAP },
    /** The first and last order of the page, for the links to the pages before and after it. */
    previous: (backwards ? more : Boolean(cursor)) ? (orders[0]?.id ?? null) : null,
    next: (backwards ? true : more) ? (orders.at(-1)?.id ?? null) : null,
  };
}

/**
 * Whether staff may send an entry now (ADR 068): it exists, is not delivered, and its order is paid or
 * the entry was released before. A draft's or an unpaid order's files go after payment.
 */
export async function entrySendable(db: DB, id: string): Promise<"ok" | "not_found" | "not_due"> {
  const row = await db
    .selectFrom("ftp_uploads_queue as q")
    .innerJoin("orders as o", "o.id", "q.order_id")
    .select(["o.status as order_status", "q.released_at"])
    .where("q.id", "=", id)
    .executeTakeFirst();
  if (!row) return "not_found";
  return PAID_SET.includes(row.order_status) || row.released_at !== null ? "ok" : "not_due";
}

/**
 * Deletes queue entries (staff's bulk delete); an entry a worker is sending right now is kept.
 * Returns how many were deleted.
 */
export async function deleteEntries(db: DB, ids: string[]): Promise<number> {
  if (ids.length === 0) return 0;
  const result = await db
    .deleteFrom("ftp_uploads_queue")
    .where("id", "in", ids)
    .where((eb) => eb.not(eb.and([eb("status", "=", "uploading"), eb("locked_until", ">=", sql<Date>`now()`)])))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
