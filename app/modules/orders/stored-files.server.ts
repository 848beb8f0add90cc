import { sql } from "kysely";
import type { DB } from "~/modules/db/db.server";

/**
 * Where the orders' rows name stored files (DESIGN §4.18, ADR 063): the facts the storage screen and
 * the background walk of the bucket judge folders by, the page of order folders the screen shows, and
 * every file the rows name for a backup and its check (ADR 080).
 */

/** These orders as their storage folders are judged: status, last change, whose they are. */
export function ordersOfFolders(db: DB, orderIds: readonly string[]) {
  return db.selectFrom("orders").select(["id", "status", "updated_at", "full_name", "email"]).where("id", "in", [...orderIds]).execute();
}

/** The file lists of these orders' patients. */
export function patientFileListsOf(db: DB, orderIds: readonly string[]) {
  return db.selectFrom("orders_patients").select(["order_id", "matrix_files_info", "aligner_files_info", "retainer_files_info"]).where("order_id", "in", [...orderIds]).execute();
}

/** The file lists of every patient (the demo stores its model under each, once). */
export function allPatientFileLists(db: DB) {
  return db.selectFrom("orders_patients").select(["matrix_files_info", "aligner_files_info", "retainer_files_info"]).execute();
}

/**
 * One page of order folders from the database, newest order first, keyset on (created_at, id): the
 * orders whose patients' lists name files and whose folder was not deleted. `after` is the id of the
 * last order of the previous page; `limit` rows are read (the page and one to tell whether more follow).
 */
export function orderFolderPage(db: DB, after: string | null, limit: number) {
  return db
    .selectFrom("orders as o")
    .select("o.id")
    .where("o.storage_removed_at", "is", null)
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom("orders_patients as p")
          .select(sql`1`.as("one"))
          .whereRef("p.order_id", "=", "o.id")
          .where(sql<boolean>`(p.matrix_files_info <> '[]'::jsonb or p.aligner_files_info <> '[]'::jsonb or p.retainer_files_info <> '[]'::jsonb)`),
      ),
    )
    .$if(after !== null, (query) => query.where(sql<boolean>`(o.created_at, o.id) < (select a.created_at, a.id from orders a where a.id = ${after})`))
    .orderBy("o.created_at", "desc")
    .orderBy("o.id", "desc")
    .limit(limit)
    .execute();
}

/**
 * Records that the orders' folders are gone from storage (retention's models pass, ADR 074, or staff on
 * the storage page, ADR 063): the file lists stay as the record. Returns the orders marked now.
 */
export async function markStorageRemoved(db: DB, ids: string[]): Promise<number> {
  return Number((await db.updateTable("orders").set({ storage_removed_at: sql<Date>`now()` }).where("id", "in", ids).where("storage_removed_at", "is", null).executeTakeFirst()).numUpdatedRows);
}

/** A file a patient's row names: its key in the `orders` bucket and the size recorded at upload. */
export interface NamedFile {
  key: string;
  size: number;
}

/**
 * Every stored file the orders' rows name, sorted by key in the storage's byte order: the one place
 * that knows where rows name files (the patients' three file lists; staff corrections and queue
 * entries name the same keys). An order whose folder the service removed (`storage_removed_at`:
 * retention's models pass, ADR 074, or staff on the storage page, ADR 063) keeps its lists as a
 * record but names no stored file: at five years most delivered orders are such. Plain SQL: a backup
 * runs it inside pg_dump's snapshot or on a copy of the embedded database.
 */
export const FILES_NAMED_BY_ROWS = `
  select distinct on (f->>'storagePath' collate "C") f->>'storagePath' as key, f->>'size' as size
  from orders_patients p
       join orders o on o.id = p.order_id and o.storage_removed_at is null
       cross join lateral jsonb_array_elements(p.matrix_files_info || p.aligner_files_info || p.retainer_files_info) f
  where f->>'storagePath' is not null
  order by f->>'storagePath' collate "C"`;

/** The files of `FILES_NAMED_BY_ROWS`, read through `run` (a bare query function: the backup's snapshot, or the app's database). */
export async function filesNamedByRows(run: <Row>(text: string) => Promise<Row[]>): Promise<NamedFile[]> {
  const rows = await run<{ key: string; size: string | number | null }>(FILES_NAMED_BY_ROWS);
  return rows.map((row) => ({ key: row.key, size: Number(row.size ?? 0) }));
}
