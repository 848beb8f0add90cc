import { type RawBuilder, sql } from "kysely";
import type { DB } from "~/modules/db/db.server";
import { intervalOf, type RetentionPeriodId, type RetentionPeriods } from "~/modules/config/retention";
import type { FileStorage } from "~/modules/storage/storage.server";

/**
 * Retention enforced (ADR 074): the scheduled job removes or anonymises what the privacy notices
 * keep only for a period, each period from the one list they read (config/retention.ts). Every
 * statement here is one set-based pass over a bounded batch: the batch's keys are chosen once
 * (`key = any(array(select … limit n))`, an InitPlan PostgreSQL runs once) and each row is then
 * found by its key, so a run costs its batch, never the table, however many years lie behind it.
 */

/** The cutoff of a period: `now() - <period>`. */
export function cutoffOf(id: RetentionPeriodId, periods: RetentionPeriods): RawBuilder<Date> {
  const { years = 0, days = 0, hours = 0 } = intervalOf(id, periods);
  return sql<Date>`now() - make_interval(years => ${years}, days => ${days}, hours => ${hours})`;
}

type Keyed = "sessions" | "sign_in_tokens" | "rate_limits" | "request_replays" | "order_codes" | "payment_events";
const KEYS: Record<Keyed, string> = {
  sessions: "id",
  sign_in_tokens: "id",
  rate_limits: "key",
  request_replays: "key",
  order_codes: "code",
  payment_events: "id",
};

/** Deletes at most `limit` rows of `table` that `where` picks: one pass (the keys once, then each row by its key). */
export async function deleteBounded(db: DB, table: Keyed, where: RawBuilder<boolean>, limit: number): Promise<number> {
  const key = sql.ref(KEYS[table]);
  const result = await sql`delete from ${sql.table(table)} where ${key} = any(array(select ${key} from ${sql.table(table)} where ${where} limit ${limit}))`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

/**
 * How much of a file-removing pass one run does: at most `batch` orders chosen, and no new group of
 * them once `deadline` (ms since the epoch) has passed. The first group always goes, so a slow
 * moment never leaves a run that removes nothing; a backlog drains over several runs.
 */
export interface PassLimits {
  batch: number;
  deadline: number;
}
/** Orders whose files are listed at once, and whose rows change in one statement each. */
export const ORDERS_AT_ONCE = 10;

/**
 * Deletes the files of `ids`' storage folders, ten orders at a time while the deadline allows, and
 * calls `settle` with each group whose files are gone (a folder that could not be emptied throws,
 * and its orders wait for the next run). Returns the orders settled and the files deleted.
 */
export async function inFolderGroups(storage: FileStorage, ids: string[], deadline: number, settle: (ids: string[]) => Promise<number>) {
  let settled = 0;
  let files = 0;
  for (let at = 0; at < ids.length && (at === 0 || Date.now() < deadline); at += ORDERS_AT_ONCE) {
    const group = ids.slice(at, at + ORDERS_AT_ONCE);
    const removed = await Promise.all(
      group.map(async (id) => {
        const keys = (await storage.list("orders", `order_${id}/`)).map((object) => object.key);
        if (keys.length) await storage.delete("orders", keys);
        return keys.length;
      }),
    );
    files += removed.reduce((sum, count) => sum + count, 0);
    settled += await settle(group);
  }
  return { settled, files };
}

/** Drafts nobody changed for the period go with their files (and, by foreign keys, their patients, queue entries, history and code). */
export async function purgeAbandonedDrafts(db: DB, storage: FileStorage, periods: RetentionPeriods, limits: PassLimits) {
  const drafts = await db
    .selectFrom("orders")
    .select("id")
    .where("status", "=", "draft")
    .where("updated_at", "<", cutoffOf("abandonedDraft", periods))
    .orderBy("updated_at")
    .limit(limits.batch)
    .execute();
  const { settled, files } = await inFolderGroups(
    storage,
    drafts.map((draft) => draft.id),
    limits.deadline,
    async (ids) => Number((await db.deleteFrom("orders").where("id", "in", ids).where("status", "=", "draft").executeTakeFirst()).numDeletedRows),
  );
  return { deleted: settled, files };
}

/**
 * The models of shipped, completed and cancelled orders, the period after the order's last change:
 * a shipped or completed order's only once every file reached production (no queue entry still to
 * send). The file lists stay as the order's record; `storage_removed_at` says the folder is gone.
 */
export async function purgeDeliveredModels(db: DB, storage: FileStorage, periods: RetentionPeriods, limits: PassLimits) {
  const orders = await db
    .selectFrom("orders")
    .select("id")
    .where("status", "in", ["shipped", "completed", "cancelled"])
    .where("storage_removed_at", "is", null)
    .where("updated_at", "<", cutoffOf("models", periods))
    .where((eb) =>
      eb.or([
        eb("status", "=", "cancelled"),
        eb.not(
          eb.exists(
            eb
              .selectFrom("ftp_uploads_queue as q")
              .select("q.id")
              .whereRef("q.order_id", "=", "orders.id")
              // Named statuses, not "<> completed": the status index finds the few undelivered entries among a
              // million delivered ones (a "<>" scanned the whole queue, 1.3 s at five years).
              .where("q.status", "in", ["pending", "uploading", "failed"])
              .where("q.removed_at", "is", null),
          ),
        ),
      ]),
    )
    .orderBy("updated_at")
    .limit(limits.batch)
    .execute();
  const { settled, files } = await inFolderGroups(
    storage,
    orders.map((order) => order.id),
    limits.deadline,
    async (ids) =>
      Number((await db.updateTable("orders").set({ storage_removed_at: sql<Date>`now()` }).where("id", "in", ids).where("storage_removed_at", "is", null).executeTakeFirst()).numUpdatedRows),
  );
  return { orders: settled, files };
}

/** A file record without the names that may carry a patient's: type, size, jaw and step stay. */
const strippedFiles = (column: string) =>
  sql.raw(`(select coalesce(jsonb_agg(f - 'originalName' - 'storagePath' - 'url'), '[]'::jsonb) from jsonb_array_elements(${column}) f)`);

/**
 * Orders past the period after their last change lose their personal data (ADR 074): the client's
 * contacts and delivery address, the patients' names, comments, file names and folder names, the
 * file server entries and staff's file corrections (they name files), the notes of the status
 * history, and any files left in storage. The accounting record stays: number and code, market,
 * currency, products and choices, totals, discount, dates, status history, payments with their lines,
 * paid invoices (ADR 072).
 */
export async function anonymiseOrders(db: DB, storage: FileStorage, periods: RetentionPeriods, limits: PassLimits) {
  const orders = await db
    .selectFrom("orders")
    .select(["id", "storage_removed_at"])
    .where("status", "<>", "draft")
    .where("anonymised_at", "is", null)
    .where("updated_at", "<", cutoffOf("orderPersonalData", periods))
    .orderBy("updated_at")
    .limit(limits.batch)
    .execute();
  // Orders whose folder is already gone need no storage call: they go first, in one group.
  const bare = orders.filter((order) => order.storage_removed_at !== null).map((order) => order.id);
  const withFiles = orders.filter((order) => order.storage_removed_at === null).map((order) => order.id);
  const anonymise = (ids: string[]) => anonymiseOrderRows(db, ids, null);
  let anonymised = bare.length ? await anonymise(bare) : 0;
  const rest = await inFolderGroups(storage, withFiles, limits.deadline, anonymise);
  anonymised += rest.settled;
  return { orders: anonymised, files: rest.files };
}

/**
 * Removes the personal data of orders `ids` in one transaction (the statements of ADR 074), their
 * files already gone: the order's address becomes `email` — null after the period; an erasure's
 * pseudonym (ADR 079), which keeps a partner's referral counting the order. Returns the orders changed.
 */
export function anonymiseOrderRows(db: DB, ids: string[], email: string | null): Promise<number> {
  return db.transaction().execute(async (trx) => {
    await trx
      .updateTable("orders_patients")
      .set({
        patient_name: "—",
        folder_name: sql<string>`'patient_' || replace(id::text, '-', '')`,
        additional_comments: null,
        matrix_files_info: strippedFiles("matrix_files_info") as never,
        aligner_files_info: strippedFiles("aligner_files_info") as never,
        retainer_files_info: strippedFiles("retainer_files_info") as never,
      })
      .where("order_id", "in", ids)
      .execute();
    await trx.deleteFrom("ftp_uploads_queue").where("order_id", "in", ids).execute();
    await trx.deleteFrom("order_file_corrections").where("order_id", "in", ids).execute();
    await trx.updateTable("order_status_history").set({ note: null }).where("order_id", "in", ids).where("note", "is not", null).execute();
    // An invoice never paid is no accounting record, and its buyer may be a person (an entrepreneur): it goes (ADR 072).
    await trx.deleteFrom("invoices").where("order_id", "in", ids).where("paid_at", "is", null).execute();
    const result = await trx
      .updateTable("orders")
      .set({
        email,
        full_name: null,
        phone: null,
        address: null,
        delivery_comment: null,
        additional_comments: null,
        anonymised_at: sql<Date>`now()`,
        storage_removed_at: sql<Date>`coalesce(storage_removed_at, now())`,
      })
      .where("id", "in", ids)
      .where("anonymised_at", "is", null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  });
}
