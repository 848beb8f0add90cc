import { type Selectable, sql } from "kysely";
import type { DB } from "~/modules/db/db.server";
import { type ClaimedEntry, type QueueLimits, queueOrderPage } from "~/modules/orders/production-queue.server";
import type { Database as DatabaseTables, OrderStatus, QueueStatus } from "~db/schema";
import { QUEUE_COUNT_CAP, QUEUE_FILES_OPEN, QUEUE_ORDER_COUNT_CAP, QUEUE_ORDERS_PER_PAGE, STATUSES_OF_FILTER, type QueueView } from "./queue";

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
 *
 * What the orders decide — which entries are due (`claimDueEntries`), how many remain, whether staff
 * may send one, the list's orders — is the order data's: orders/production-queue.server.ts.
 */

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

/** An order of the back-office list with the entries of the filter beneath it (ADR 068), folded when it has many (ADR 098). */
export interface QueueOrderGroup {
  id: string;
  code: string;
  status: OrderStatus;
  clinic: string | null;
  email: string | null;
  createdAt: Date;
  /** The order's files in the filter, by state. */
  counts: Partial<Record<QueueStatus, number>>;
  /** Whether every file of the filter is listed; folded, only the failed ones are, or none. */
  open: boolean;
  entries: QueueViewRow[];
}

type QueueViewRow = Selectable<DatabaseTables["ftp_uploads_view"]>;

/**
 * Which orders of a page list all their files (ADR 098): the opened order, and any order with at
 * most QUEUE_FILES_OPEN of the view's files. A larger order is folded: its counts by state, and its
 * failed files — the ones staff act on — listed still, the first QUEUE_FILES_OPEN of them. A page
 * lists at most QUEUE_ORDERS_PER_PAGE × QUEUE_FILES_OPEN files, whatever the queue holds.
 */
export function foldQueueOrders(orders: readonly { id: string; counts: Partial<Record<QueueStatus, number>> }[], opened: string | null) {
  return orders.map(({ id, counts }) => {
    const files = Object.values(counts).reduce((sum, n) => sum + (n ?? 0), 0);
    const open = id === opened || files <= QUEUE_FILES_OPEN;
    return { id, open, failedShown: open ? 0 : Math.min(counts.failed ?? 0, QUEUE_FILES_OPEN) };
  });
}

/**
 * One page of the back-office list by order (ADR 068): the orders that have entries in the filter,
 * newest first, drafts left out, paged by keyset on the order (the order data's `queueOrderPage`);
 * then each order's files of the filter counted by state (orders' entries by ftp_uploads_queue_order_status_idx)
 * and the files the page lists (`foldQueueOrders`), each order's in upload order. The entries and
 * orders of the filter are counted up to QUEUE_COUNT_CAP and QUEUE_ORDER_COUNT_CAP (`capped` says there are more).
 */
export async function listQueueByOrder(db: DB, view: QueueView) {
  const statuses = STATUSES_OF_FILTER[view.status];
  const { orders, more, backwards, cursor, entryCount, orderCount } = await queueOrderPage(
    db,
    { statuses, type: view.type, after: view.after, before: view.before },
    { perPage: QUEUE_ORDERS_PER_PAGE, entryCap: QUEUE_COUNT_CAP, orderCap: QUEUE_ORDER_COUNT_CAP },
  );
  const ids = orders.map((order) => order.id);
  // A file set aside by the doctor's skip is not in the order (ADR 087): the list is the factory's work.
  let counting = db.selectFrom("ftp_uploads_queue").where("order_id", "in", ids).where("status", "in", statuses).where("set_aside_at", "is", null);
  if (view.type !== "all") counting = counting.where("file_type", "=", view.type);
  const counted = ids.length ? await counting.select(["order_id", "status", (eb) => eb.fn.countAll<number>().as("n")]).groupBy(["order_id", "status"]).execute() : [];
  const countsOf = new Map<string, Partial<Record<QueueStatus, number>>>(ids.map((id) => [id, {}]));
  for (const row of counted) countsOf.get(row.order_id)![row.status] = Number(row.n);

  const folds = foldQueueOrders(ids.map((id) => ({ id, counts: countsOf.get(id)! })), view.open);
  const whole = folds.filter((fold) => fold.open).map((fold) => fold.id);
  const withFailed = folds.filter((fold) => fold.failedShown > 0).map((fold) => fold.id);
  // A folded order's first failed files, each order's by its entries' index (order_id, status).
  const failedIds = withFailed.length
    ? (
        await sql<{ id: string }>`select f.id from (values ${sql.join(withFailed.map((id) => sql`(${id}::uuid)`))}) as o(id) cross join lateral (
            select q.id from ftp_uploads_queue q
             where q.order_id = o.id and q.status = 'failed' and q.set_aside_at is null ${view.type === "all" ? sql`` : sql`and q.file_type = ${view.type}`}
             order by q.created_at, q.id limit ${QUEUE_FILES_OPEN}) f`.execute(db)
      ).rows.map((row) => row.id)
    : [];
  let listing = db.selectFrom("ftp_uploads_view").selectAll().where("status", "in", statuses).where("set_aside_at", "is", null);
  if (view.type !== "all") listing = listing.where("file_type", "=", view.type);
  listing = listing.where((eb) => eb.or([...(whole.length ? [eb("order_id", "in", whole)] : []), ...(failedIds.length ? [eb("id", "in", failedIds)] : [])]));
  const rows = whole.length || failedIds.length ? await listing.orderBy("created_at").orderBy("id").execute() : [];
  const openOf = new Map(folds.map((fold) => [fold.id, fold.open]));
  return {
    groups: orders.map(
      (order): QueueOrderGroup => ({
        id: order.id,
        code: order.code,
        status: order.status,
        clinic: order.full_name,
        email: order.email,
        createdAt: order.created_at,
        counts: countsOf.get(order.id)!,
        open: openOf.get(order.id)!,
        entries: rows.filter((row) => row.order_id === order.id),
      }),
    ),
    entries: { total: Math.min(entryCount, QUEUE_COUNT_CAP), capped: entryCount > QUEUE_COUNT_CAP },
    orders: { total: Math.min(orderCount, QUEUE_ORDER_COUNT_CAP), capped: orderCount > QUEUE_ORDER_COUNT_CAP },
    /** The first and last order of the page, for the links to the pages before and after it. */
    previous: (backwards ? more : cursor) ? (orders[0]?.id ?? null) : null,
    next: (backwards ? true : more) ? (orders.at(-1)?.id ?? null) : null,
  };
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
