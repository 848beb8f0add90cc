import { type RawBuilder, sql } from "kysely";
import type { OrderStatus } from "~db/schema";
import type { DB } from "~/modules/db/db.server";

/**
 * The orders' side of retention (ADR 074) and of a clinic's erasure (ADR 079): the bounded batches
 * of orders each pass takes on, and the statements that delete, mark or anonymise them. The scheduled
 * job (jobs/retention.server.ts, jobs/erasure.server.ts) removes their files first and decides the
 * cutoffs; every batch here is chosen by an index and limited.
 */

/** Drafts nobody changed since `cutoff`, the oldest first, at most `limit`. */
export function abandonedDrafts(db: DB, cutoff: RawBuilder<Date>, limit: number) {
  return db.selectFrom("orders").select("id").where("status", "=", "draft").where("updated_at", "<", cutoff).orderBy("updated_at").limit(limit).execute();
}

/** Deletes the drafts among `ids` (an order that left the draft meanwhile stays); returns how many went. */
export async function deleteDrafts(db: DB, ids: string[]): Promise<number> {
  return Number((await db.deleteFrom("orders").where("id", "in", ids).where("status", "=", "draft").executeTakeFirst()).numDeletedRows);
}

/**
 * Shipped, completed and cancelled orders unchanged since `cutoff` whose folder is still in storage:
 * a shipped or completed order's only once every file reached production (no queue entry still to
 * send). The oldest first, at most `limit`.
 */
export function deliveredOrdersWithFiles(db: DB, cutoff: RawBuilder<Date>, limit: number) {
  return db
    .selectFrom("orders")
    .select("id")
    .where("status", "in", ["shipped", "completed", "cancelled"])
    .where("storage_removed_at", "is", null)
    .where("updated_at", "<", cutoff)
    .where((eb) =>
      eb.or([
        eb("status", "=", "cancelled"),
        eb.not(
          eb.exists(
            eb
              .selectFrom("ftp_uploads_queue as q")
              .select("q.id")
              .whereRef("q.order_id", "=", "orders.id")
              // A shipped or completed order's entries are all due (ADR 092): the partial index of the due
              // entries still to deliver holds them, and never the never-due entries of drafts and
              // unpaid orders. Named statuses as literals, so a prepared statement's plan still uses it
              // (a "<> completed" scanned the whole queue, 1.3 s at five years).
              .where(sql<boolean>`q.due and q.status in ('pending', 'uploading', 'failed')`)
              .where("q.removed_at", "is", null),
          ),
        ),
      ]),
    )
    .orderBy("updated_at")
    .limit(limit)
    .execute();
}

/** Orders past the draft, not anonymised yet, unchanged since `cutoff`: the oldest first, at most `limit`. */
export function ordersToAnonymise(db: DB, cutoff: RawBuilder<Date>, limit: number) {
  return db
    .selectFrom("orders")
    .select(["id", "storage_removed_at"])
    .where("status", "<>", "draft")
    .where("anonymised_at", "is", null)
    .where("updated_at", "<", cutoff)
    .orderBy("updated_at")
    .limit(limit)
    .execute();
}

/**
 * Deletes the accounting records of at most `limit` anonymised orders unchanged since `cutoff`, the
 * oldest first (ADR 074): the order with its patients' stripped records, history and paid invoices
 * (foreign keys), and its payments, which a deleted order would otherwise leave behind without it.
 * One transaction; returns the orders deleted.
 */
export function deleteAccountingRecords(db: DB, cutoff: RawBuilder<Date>, limit: number): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const ids = (await trx.selectFrom("orders").select("id").where("anonymised_at", "is not", null).where("updated_at", "<", cutoff).orderBy("updated_at").limit(limit).execute()).map((row) => row.id);
    if (!ids.length) return 0;
    await trx.deleteFrom("payments").where("order_id", "in", ids).execute();
    return Number((await trx.deleteFrom("orders").where("id", "in", ids).executeTakeFirst()).numDeletedRows);
  });
}

/** A file record without the names that may carry a patient's: type, size, jaw and step stay. */
const strippedFiles = (column: string) =>
  sql.raw(`(select coalesce(jsonb_agg(f - 'originalName' - 'storagePath' - 'url'), '[]'::jsonb) from jsonb_array_elements(${column}) f)`);

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
    // The order's thread (ADR 104) is personal correspondence: its messages, notes and state go with the data.
    await trx.deleteFrom("order_messages").where("order_id", "in", ids).execute();
    await trx.deleteFrom("order_threads").where("order_id", "in", ids).execute();
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

/**
 * The address's orders in `statuses`, the oldest first, at most `limit` (an erasure's pass, ADR 079).
 * `afterMails`: a change of the last day whose status mail has not gone yet ("shipped" with its
 * tracking) keeps its order waiting for it.
 */
export function ordersOfAddress(db: DB, email: string, statuses: readonly OrderStatus[], afterMails: boolean, limit: number) {
  return db
    .selectFrom("orders")
    .select(["id", "storage_removed_at", "paid_at", "updated_at"])
    .where("email", "=", email)
    .where("status", "in", [...statuses])
    .$if(afterMails, (query) =>
      query.where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom("order_status_history as h")
              .select("h.id")
              .whereRef("h.order_id", "=", "orders.id")
              .where("h.notified_at", "is", null)
              .where("h.mail_failed_at", "is", null)
              .where("h.created_at", ">", sql<Date>`now() - interval '1 day'`),
          ),
        ),
      ),
    )
    .orderBy("created_at")
    .limit(limit)
    .execute();
}

/** Deletes the orders among `ids` still in `statuses`; returns how many went. */
export async function deleteOrdersIn(db: DB, ids: string[], statuses: readonly OrderStatus[]): Promise<number> {
  return Number((await db.deleteFrom("orders").where("id", "in", ids).where("status", "in", [...statuses]).executeTakeFirst()).numDeletedRows);
}

/** How many orders the address still has, and how many of them in `waiting`. */
export async function ordersLeftOf(db: DB, email: string, waiting: readonly OrderStatus[]): Promise<{ all: number; waiting: number }> {
  const left = await db
    .selectFrom("orders")
    .select((eb) => [eb.fn.countAll<string>().as("all"), eb.fn.countAll<string>().filterWhere("status", "in", [...waiting]).as("waiting")])
    .where("email", "=", email)
    .executeTakeFirstOrThrow();
  return { all: Number(left.all), waiting: Number(left.waiting) };
}
