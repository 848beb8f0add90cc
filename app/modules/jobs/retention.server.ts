import { type RawBuilder, sql } from "kysely";
import type { DB } from "~/modules/db/db.server";
import { intervalOf, type RetentionPeriodId, type RetentionPeriods } from "~/modules/config/retention";
import type { FileStorage } from "~/modules/storage/storage.server";
import { abandonedDrafts, anonymiseOrderRows, deleteDrafts, deliveredOrdersWithFiles, ordersToAnonymise } from "~/modules/orders/retention.server";
import { markStorageRemoved } from "~/modules/orders/stored-files.server";

/**
 * Retention enforced (ADR 074): the scheduled job removes or anonymises what the privacy notices
 * keep only for a period, each period from the one list they read (config/retention.ts). Every
 * statement here is one set-based pass over a bounded batch: the batch's keys are chosen once
 * (`key = any(array(select … limit n))`, an InitPlan PostgreSQL runs once) and each row is then
 * found by its key, so a run costs its batch, never the table, however many years lie behind it.
 */

/** `from - <period>`, in SQL. */
function periodBefore(from: RawBuilder<Date>, id: RetentionPeriodId, periods: RetentionPeriods): RawBuilder<Date> {
  const { years = 0, days = 0, hours = 0 } = intervalOf(id, periods);
  return sql<Date>`${from} - make_interval(years => ${years}, days => ${days}, hours => ${hours})`;
}

/** The cutoff of a period: `now() - <period>`. */
export function cutoffOf(id: RetentionPeriodId, periods: RetentionPeriods): RawBuilder<Date> {
  return periodBefore(sql<Date>`now()`, id, periods);
}

/**
 * The cutoff of a period counted from the end of a year, as accounting law counts: a record last
 * changed in year Y goes once Y + <period> has ended (`date_trunc('year', now()) - <period>`).
 */
export function yearEndCutoffOf(id: RetentionPeriodId, periods: RetentionPeriods): RawBuilder<Date> {
  return periodBefore(sql<Date>`date_trunc('year', now())`, id, periods);
}

type Keyed = "sessions" | "sign_in_tokens" | "rate_limits" | "request_replays" | "order_codes" | "payment_events" | "payments" | "partner_payouts";
const KEYS: Record<Keyed, string> = {
  sessions: "id",
  sign_in_tokens: "id",
  rate_limits: "key",
  request_replays: "key",
  order_codes: "code",
  payment_events: "id",
  payments: "id",
  partner_payouts: "id",
};

/** Deletes at most `limit` rows of `table` that `where` picks: one pass (the keys once, then each row by its key). */
export async function deleteBounded(db: DB, table: Keyed, where: RawBuilder<boolean>, limit: number): Promise<number> {
  const key = sql.ref(KEYS[table]);
  const result = await sql`delete from ${sql.table(table)} where ${key} = any(array(select ${key} from ${sql.table(table)} where ${where} limit ${limit}))`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

/**
 * How much of a file-removing pass one run does: at most `batch` orders chosen, and no new group of
 * them once `deadline` (ms since the epoch) has passed. The first group always goes — or groups until
 * `atLeast` orders, when given — so a slow moment never leaves a run that removes nothing, and a
 * backlog drains over several runs at a pace the time cannot lower.
 */
export interface PassLimits {
  batch: number;
  deadline: number;
  /** Orders the pass takes on whatever the time, in whole groups (ORDERS_AT_ONCE, the first group, by default). */
  atLeast?: number;
}
/** Orders of a pass's first group: their files are listed at once, and their rows change in one statement each. */
export const ORDERS_AT_ONCE = 10;
/** The most orders of one group: a group's storage calls run at once. */
export const MOST_ORDERS_AT_ONCE = 50;

/**
 * Deletes the files of `ids`' storage folders, a group of orders at a time while the deadline allows,
 * and calls `settle` with each group whose files are gone (a folder that could not be emptied throws,
 * and its orders wait for the next run). The first group is ORDERS_AT_ONCE orders and always goes;
 * each next one is sized by the time the last took (ADR 092): twice as many orders while a group
 * took under a quarter of the time left, up to MOST_ORDERS_AT_ONCE, so a fast storage clears a
 * backlog in few groups and a slow one is not given more than its time; groups go whatever the time
 * until `atLeast` orders were taken on. Returns the orders settled and the files deleted.
 */
export async function inFolderGroups(storage: FileStorage, ids: string[], deadline: number, settle: (ids: string[]) => Promise<number>, atLeast = ORDERS_AT_ONCE) {
  let settled = 0;
  let files = 0;
  let size = ORDERS_AT_ONCE;
  for (let at = 0; at < ids.length && (at === 0 || at < atLeast || Date.now() < deadline); ) {
    const group = ids.slice(at, at + size);
    at += group.length;
    const groupStarted = Date.now();
    const removed = await Promise.all(
      group.map(async (id) => {
        const keys = (await storage.list("orders", `order_${id}/`)).map((object) => object.key);
        if (keys.length) await storage.delete("orders", keys);
        return keys.length;
      }),
    );
    files += removed.reduce((sum, count) => sum + count, 0);
    settled += await settle(group);
    const took = Date.now() - groupStarted;
    if (took * 4 < deadline - Date.now()) size = Math.min(size * 2, MOST_ORDERS_AT_ONCE);
  }
  return { settled, files };
}

/** Drafts nobody changed for the period go with their files (and, by foreign keys, their patients, queue entries, history and code). */
export async function purgeAbandonedDrafts(db: DB, storage: FileStorage, periods: RetentionPeriods, limits: PassLimits) {
  const drafts = await abandonedDrafts(db, cutoffOf("abandonedDraft", periods), limits.batch);
  const { settled, files } = await inFolderGroups(
    storage,
    drafts.map((draft) => draft.id),
    limits.deadline,
    (ids) => deleteDrafts(db, ids),
    limits.atLeast,
  );
  return { deleted: settled, files };
}

/**
 * The models of shipped, completed and cancelled orders, the period after the order's last change:
 * a shipped or completed order's only once every file reached production (no queue entry still to
 * send). The file lists stay as the order's record; `storage_removed_at` says the folder is gone.
 */
export async function purgeDeliveredModels(db: DB, storage: FileStorage, periods: RetentionPeriods, limits: PassLimits) {
  const orders = await deliveredOrdersWithFiles(db, cutoffOf("models", periods), limits.batch);
  const { settled, files } = await inFolderGroups(
    storage,
    orders.map((order) => order.id),
    limits.deadline,
    (ids) => markStorageRemoved(db, ids),
    limits.atLeast,
  );
  return { orders: settled, files };
}

/**
 * Orders past the period after their last change lose their personal data (ADR 074): the client's
 * contacts and delivery address, the patients' names, comments, file names and folder names, the
 * file server entries and staff's file corrections (they name files), the notes of the status
 * history, and any files left in storage (the statements: orders/retention.server.ts,
 * `anonymiseOrderRows`). The accounting record stays: number and code, market, currency, products
 * and choices, totals, discount, dates, status history, payments with their lines, paid invoices (ADR 072).
 */
export async function anonymiseOrders(db: DB, storage: FileStorage, periods: RetentionPeriods, limits: PassLimits) {
  const orders = await ordersToAnonymise(db, cutoffOf("orderPersonalData", periods), limits.batch);
  // Orders whose folder is already gone need no storage call: they go first, in one group.
  const bare = orders.filter((order) => order.storage_removed_at !== null).map((order) => order.id);
  const withFiles = orders.filter((order) => order.storage_removed_at === null).map((order) => order.id);
  const anonymise = (ids: string[]) => anonymiseOrderRows(db, ids, null);
  let anonymised = bare.length ? await anonymise(bare) : 0;
  const rest = await inFolderGroups(storage, withFiles, limits.deadline, anonymise);
  anonymised += rest.settled;
  return { orders: anonymised, files: rest.files };
}
