import { sql } from "kysely";
import { cookies } from "~/modules/http/request/cookies.server";
import { takeFlash } from "~/modules/http/request/request-context.server";
import type { FileType, QueueStatus, StorageTrashReason } from "~db/schema";
import type { DB } from "~/modules/db/db.server";
import type { FileStorage, ListedObject } from "~/modules/storage/storage.server";
import { storedFilesOf } from "~/modules/orders/files.server";
import { markStorageRemoved, orderFolderPage, ordersOfFolders, patientFileListsOf } from "~/modules/orders/stored-files.server";
import { batches, classifyFolder, type ClassifiedFolder, type FolderOrder, groupByFolder, orderIdOfFolder, type StoredFile } from "./storage-trash";

/**
 * The storage files screen (staff side §2 "Storage files screen", DESIGN §4.18, ADR 063): order
 * folders as their orders know them (file lists in the database, keyset pages), the trash the
 * background walk of the bucket found, and deletions that never lose work — each key is judged
 * again against the database at the moment of deleting. Works on any FileStorage (folder or S3).
 */

/** Storage deletions go 100 paths at a time (staff side §9). */
export const DELETE_BATCH = 100;
/** Folders a page shows. */
export const FOLDERS_PAGE = 100;
/** Trash keys one "delete trash" takes on; more wait for the next click. */
export const TRASH_PER_DELETION = 10_000;
const LOOKUP_BATCH = 1000;
const FILE_TYPES: FileType[] = ["matrix", "aligners", "retainer"];

export interface Knowledge {
  orders: Map<string, FolderOrder>;
  queue: Map<string, QueueStatus>;
  /** Order id → the files its patients' lists name. */
  listed: Map<string, StoredFile[]>;
}

/** What the database knows of these orders: the order, its queue entries and its file lists. */
export async function knowledgeOf(db: DB, orderIds: string[]): Promise<Knowledge> {
  const orders = new Map<string, FolderOrder>();
  const queue = new Map<string, QueueStatus>();
  const listed = new Map<string, StoredFile[]>();
  for (const ids of batches(orderIds, LOOKUP_BATCH)) {
    const [orderRows, queueRows, patientRows] = await Promise.all([
      ordersOfFolders(db, ids),
      db.selectFrom("ftp_uploads_queue").select(["file_path", "status"]).where("order_id", "in", ids).execute(),
      patientFileListsOf(db, ids),
    ]);
    for (const row of orderRows)
      orders.set(row.id, {
        id: row.id,
        status: row.status,
        updatedAt: row.updated_at,
        fullName: row.full_name,
        email: row.email,
      });
    for (const row of queueRows) queue.set(row.file_path, row.status);
    for (const row of patientRows) {
      const files = listed.get(row.order_id) ?? [];
      for (const type of FILE_TYPES)
        for (const file of storedFilesOf(row, type)) {
          files.push({ key: file.storagePath, size: Number(file.size) || 0 });
          // A PLY or OBJ kept beside its STL (ADR 102) is listed with it and goes as its STL goes.
          if (file.source) {
            files.push({ key: file.source.storagePath, size: Number(file.size) || 0 });
            const status = queue.get(file.storagePath);
            if (status) queue.set(file.source.storagePath, status);
          }
        }
      listed.set(row.order_id, files);
    }
  }
  return { orders, queue, listed };
}

/** One folder judged with what the database knows; `stored` are the objects seen in the bucket (all or some of them). */
function judgeFolder(name: string, stored: StoredFile[], knowledge: Knowledge, now: Date): ClassifiedFolder {
  const orderId = orderIdOfFolder(name);
  const listedFiles = orderId ? knowledge.listed.get(orderId) ?? [] : [];
  const seen = new Set(stored.map((file) => file.key));
  // The order's listed files take part even when this batch did not see them: "delivered" means all of them.
  const files = [...stored, ...listedFiles.filter((file) => !seen.has(file.key))];
  const folder = classifyFolder(name, files, orderId ? knowledge.orders.get(orderId) ?? null : null, knowledge.queue, now, new Set(listedFiles.map((file) => file.key)));
  return folder;
}

export interface TrashObject {
  key: string;
  size: number;
  modifiedAt: Date;
  reason: StorageTrashReason;
}

/** Which of these bucket objects are trash now (DESIGN §4.18, ADR 063), judged with one round of lookups. */
export async function judgeObjects(db: DB, objects: readonly ListedObject[], now: Date): Promise<TrashObject[]> {
  const folders = groupByFolder(objects);
  const orderIds = [...new Set([...folders.keys()].map(orderIdOfFolder).filter((id): id is string => id !== null))];
  const knowledge = await knowledgeOf(db, orderIds);
  const byKey = new Map(objects.map((object) => [object.key, object]));
  const trash: TrashObject[] = [];
  for (const [name, files] of folders) {
    const orderId = orderIdOfFolder(name);
    if (!orderId) continue; // not an order folder: left alone
    const folder = judgeFolder(name, files, knowledge, now);
    const listed = new Set((knowledge.listed.get(orderId) ?? []).map((file) => file.key));
    const order = knowledge.orders.get(orderId);
    for (const key of folder.garbage) {
      const object = byKey.get(key);
      if (!object) continue; // a listed file this batch did not see
      const reason: StorageTrashReason = !order
        ? "order_missing"
        : !listed.has(key)
          ? "unlisted"
          : order.status === "cancelled"
            ? "cancelled"
            : order.status === "draft"
              ? "abandoned_draft"
              : "delivered";
      trash.push({ key, size: object.size, modifiedAt: object.lastModified, reason });
    }
  }
  return trash;
}

/** One folder of the `orders` bucket, listed and classified (bounded by one order's files). */
export async function listStorageFolders(db: DB, storage: FileStorage, options: { folder?: string; now?: Date } = {}): Promise<ClassifiedFolder[]> {
  const objects = await storage.list("orders", options.folder ? `${options.folder}/` : "");
  const folders = groupByFolder(objects);
  const orderIds = [...folders.keys()].map(orderIdOfFolder).filter((id): id is string => id !== null);
  const knowledge = await knowledgeOf(db, [...new Set(orderIds)]);
  const now = options.now ?? new Date();
  return [...folders].map(([name, files]) => (orderIdOfFolder(name) ? judgeFolder(name, files, knowledge, now) : classifyFolder(name, files, null, knowledge.queue, now)));
}

/**
 * A page of order folders from the database, newest order first, keyset on (created_at, id): the
 * orders whose patients' lists name files and whose folder was not deleted. `after` is the id of
 * the last order of the previous page. The bucket is not listed.
 */
export async function listOrderFolders(db: DB, options: { after?: string | null; now?: Date } = {}): Promise<{ folders: ClassifiedFolder[]; next: string | null }> {
  const after = options.after ?? null;
  const rows = await orderFolderPage(db, after, FOLDERS_PAGE + 1);
  const page = rows.slice(0, FOLDERS_PAGE).map((row) => row.id);
  const knowledge = await knowledgeOf(db, page);
  const now = options.now ?? new Date();
  const folders = page
    .filter((id) => knowledge.orders.has(id))
    .map((id) => {
      const files = knowledge.listed.get(id) ?? [];
      return classifyFolder(`order_${id}`, files, knowledge.orders.get(id)!, knowledge.queue, now, new Set(files.map((file) => file.key)));
    });
  return { folders, next: rows.length > FOLDERS_PAGE ? page[page.length - 1]! : null };
}

export interface TrashFolder {
  name: string;
  files: number;
  size: number;
  reason: StorageTrashReason;
}

/** The trash found so far, by folder, keyset on the folder's name (byte order, like the bucket). */
export async function listTrashFolders(db: DB, options: { after?: string | null } = {}): Promise<{ folders: TrashFolder[]; next: string | null }> {
  const after = options.after ?? null;
  const rows = await db
    .selectFrom("storage_trash")
    // Grouped by the name in byte order, as storage_trash_folder_idx holds it: the groups stream from the
    // index and stop at the page (grouped by the plain name, every trash row was sorted first: 868 → 3.5 ms at five years).
    .select([sql<string>`folder collate "C"`.as("folder"), sql<number>`count(*)::int`.as("files"), sql<string>`sum(size)::bigint`.as("size"), sql<StorageTrashReason>`min(reason)`.as("reason")])
    .$if(after !== null, (query) => query.where(sql<boolean>`folder collate "C" > ${after}`))
    .groupBy(sql`folder collate "C"`)
    .orderBy(sql`folder collate "C"`)
    .limit(FOLDERS_PAGE + 1)
    .execute();
  const folders = rows.slice(0, FOLDERS_PAGE).map((row) => ({ name: row.folder, files: Number(row.files), size: Number(row.size), reason: row.reason }));
  return { folders, next: rows.length > FOLDERS_PAGE ? folders[folders.length - 1]!.name : null };
}

export interface StorageTotals {
  /** The last full walk of the bucket; null until one has ended. */
  walk: { finishedAt: Date; folders: number; objects: number; bytes: number } | null;
  /** The walk under way: where it is and since when. */
  walking: { startedAt: Date; objects: number } | null;
  trashFiles: number;
  trashSize: number;
}

/** The page's figures: the walk's (one row) and the found trash's, kept as the trash changes (one row, ADR 106). */
export async function storageTotals(db: DB): Promise<StorageTotals> {
  const [walk, totals] = await Promise.all([
    db.selectFrom("storage_walk").selectAll().where("id", "=", 1).executeTakeFirst(),
    db.selectFrom("storage_trash_totals").select(["files", "bytes"]).where("id", "=", 1).executeTakeFirst(),
  ]);
  const trash = { files: totals?.files ?? 0, size: totals?.bytes ?? 0 };
  return {
    walk: walk?.finished_at ? { finishedAt: walk.finished_at, folders: Number(walk.folders ?? 0), objects: Number(walk.objects ?? 0), bytes: Number(walk.bytes ?? 0) } : null,
    walking: walk?.pass_started_at ? { startedAt: walk.pass_started_at, objects: Number(walk.pass_objects) } : null,
    trashFiles: Number(trash.files),
    trashSize: Number(trash.size),
  };
}

/** The files of one folder of the `orders` bucket, for the folder view of the files screen. */
export async function listFolderFiles(
  storage: FileStorage,
  folder: string,
): Promise<
  Array<{
    key: string;
    name: string;
    size: number;
    kind: string | null;
    extension: string;
  }>
> {
  const objects = await storage.list("orders", `${folder}/`);
  return objects
    .map((object) => {
      const name = object.key.slice(folder.length + 1);
      const segments = name.split("/");
      // order_{id}/{patientFolder}/{matrix|aligners|retainer}/{file} (DESIGN §4.12); else the extension.
      const kind = segments.length >= 3 && ["matrix", "aligners", "retainer"].includes(segments[segments.length - 2]!) ? segments[segments.length - 2]! : null;
      const base = segments[segments.length - 1]!;
      const extension = base.includes(".") ? base.slice(base.lastIndexOf(".") + 1).toUpperCase() : "";
      return { key: object.key, name, size: object.size, kind, extension };
    })
    .sort((a, b) => a.name.localeCompare(b.name));
}

export interface DeletionReport {
  deletedFiles: number;
  /** Folders whose every file was deleted. */
  deletedFolders: number;
  /** Folders that kept files because a batch failed. */
  failedFolders: number;
  errors: string[];
}

/** Deletes keys 100 at a time; a failing batch is reported and the others still run. Returns the keys that went. */
async function deleteKeys(storage: FileStorage, keys: readonly string[], errors: string[]): Promise<Set<string>> {
  const deleted = new Set<string>();
  for (const batch of batches(keys, DELETE_BATCH)) {
    try {
      await storage.delete("orders", batch);
      for (const key of batch) deleted.add(key);
    } catch (error) {
      errors.push(error instanceof Error ? error.message : String(error));
    }
  }
  return deleted;
}

/** Orders whose every listed file is gone: their folder no longer shows on the page (the lists stay). */
async function markRemoved(db: DB, orderIds: string[]) {
  if (orderIds.length) await markStorageRemoved(db, orderIds);
}

/**
 * "Delete trash": the trash the walk found, up to `limit` keys, each judged again against the
 * database now — a key an order has come to know since, or whose queue entry waits, stays — then
 * deleted 100 at a time. Found keys that are no longer trash leave the list.
 */
export async function deleteTrash(db: DB, storage: FileStorage, options: { limit?: number; now?: Date } = {}): Promise<DeletionReport> {
  const now = options.now ?? new Date();
  const rows = await db.selectFrom("storage_trash").select(["key", "size", "modified_at"]).orderBy(sql`key collate "C"`).limit(options.limit ?? TRASH_PER_DELETION).execute();
  const objects: ListedObject[] = rows.map((row) => ({ key: row.key, size: Number(row.size), lastModified: row.modified_at }));
  const still = await judgeObjects(db, objects, now);
  const stillKeys = new Set(still.map((object) => object.key));
  const cleared = objects.filter((object) => !stillKeys.has(object.key)).map((object) => object.key);
  const errors: string[] = [];
  const deleted = await deleteKeys(
    storage,
    still.map((object) => object.key),
    errors,
  );
  const gone = [...deleted, ...cleared];
  for (const keys of batches(gone, LOOKUP_BATCH)) await db.deleteFrom("storage_trash").where("key", "in", keys).execute();

  // Folders: whole when all of their found trash went and, for a known order, every listed file with it.
  const folders = groupByFolder(still);
  const orderIds = [...new Set([...folders.keys()].map(orderIdOfFolder).filter((id): id is string => id !== null))];
  const knowledge = await knowledgeOf(db, orderIds);
  let deletedFolders = 0;
  let failedFolders = 0;
  const removed: string[] = [];
  for (const [name, files] of folders) {
    if (files.some((file) => !deleted.has(file.key))) {
      failedFolders++;
      continue;
    }
    const orderId = orderIdOfFolder(name)!;
    const listed = knowledge.listed.get(orderId);
    if (!knowledge.orders.has(orderId)) deletedFolders++;
    else if (listed && listed.every((file) => deleted.has(file.key))) {
      deletedFolders++;
      removed.push(orderId);
    }
  }
  await markRemoved(db, removed);
  return { deletedFiles: deleted.size, deletedFolders, failedFolders, errors };
}

export type FolderDeletion =
  | { ok: true; report: DeletionReport }
  | {
      ok: false;
      reason: "not_found" | "not_allowed";
      folder?: ClassifiedFolder;
    };

/** Deletes one folder, only when all of it is garbage (DESIGN §4.18); lists that folder only. */
export async function deleteFolder(db: DB, storage: FileStorage, name: string): Promise<FolderDeletion> {
  const orderId = orderIdOfFolder(name);
  if (!orderId) return { ok: false, reason: "not_allowed" };
  const [folder] = await listStorageFolders(db, storage, { folder: name });
  if (!folder) return { ok: false, reason: "not_found" };
  if (!folder.deletable) return { ok: false, reason: "not_allowed", folder };
  const stored = folder.files.filter((file) => file.lastModified !== undefined).map((file) => file.key);
  const errors: string[] = [];
  const deleted = await deleteKeys(storage, stored, errors);
  if (deleted.size) await db.deleteFrom("storage_trash").where("folder", "=", name).where("key", "in", [...deleted]).execute();
  const whole = deleted.size === stored.length;
  if (whole) {
    await db.deleteFrom("storage_trash").where("folder", "=", name).execute();
    await markRemoved(db, [orderId]);
  }
  return { ok: true, report: { deletedFiles: deleted.size, deletedFolders: whole ? 1 : 0, failedFolders: whole ? 0 : 1, errors } };
}

// ---------------------------------------------------------------------------------------------
// Errors of the last deletion, shown once in a dialog after the redirect (POST-redirect-GET).

const MAX_ERRORS = 10;

const resultCookie = cookies.backofficeFilesResult;

export interface DeletionErrors {
  failedFolders: number;
  errors: string[];
}

export async function deletionErrorsCookie(report: DeletionReport): Promise<string> {
  const value: DeletionErrors = {
    failedFolders: report.failedFolders,
    errors: report.errors.slice(0, MAX_ERRORS).map((error) => error.slice(0, 300)),
  };
  return resultCookie().serialize(value);
}

/** The errors of the last deletion (if any) and the header that forgets them. */
export async function readDeletionErrors(request: Request): Promise<{ result: DeletionErrors | null; headers: Headers }> {
  const { value, headers } = await takeFlash(request, resultCookie());
  const result = value as DeletionErrors | null;
  return { result: result && Array.isArray(result.errors) ? result : null, headers };
}
