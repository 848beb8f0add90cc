import { cookies } from "~/modules/http/cookies.server";
import type { QueueStatus } from "~db/schema";
import type { DB } from "~/modules/db/db.server";
import { isDatabaseUnavailable } from "~/modules/db/unavailable";
import type { FileStorage } from "~/modules/storage/storage.server";
import { batches, classifyFolder, type ClassifiedFolder, type FolderOrder, groupByFolder, orderIdOfFolder } from "./storage-trash";
import { logger } from "~/modules/log/logger.server";

/**
 * The storage files screen (staff side §2 "Storage files screen", DESIGN §4.18): order folders of
 * the `orders` bucket with their orders and queue states, and deletions that never lose work.
 * Works on any FileStorage (folder or S3): it only lists and deletes.
 */

/** Storage deletions go 100 paths at a time (staff side §9). */
export const DELETE_BATCH = 100;
const LOOKUP_BATCH = 1000;

async function ordersAndQueue(db: DB, orderIds: string[]) {
  const orders = new Map<string, FolderOrder>();
  const queue = new Map<string, QueueStatus>();
  for (const ids of batches(orderIds, LOOKUP_BATCH)) {
    const [orderRows, queueRows] = await Promise.all([
      db.selectFrom("orders").select(["id", "status", "updated_at", "full_name", "email"]).where("id", "in", ids).execute(),
      db.selectFrom("ftp_uploads_queue").select(["file_path", "status"]).where("order_id", "in", ids).execute(),
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
  }
  return { orders, queue };
}

/** Every top-level folder (or loose object) of the `orders` bucket, classified; `prefix` narrows to one folder. */
export async function listStorageFolders(db: DB, storage: FileStorage, options: { folder?: string; now?: Date } = {}): Promise<ClassifiedFolder[]> {
  const objects = await storage.list("orders", options.folder ? `${options.folder}/` : "");
  const folders = groupByFolder(objects);
  const orderIds = [...folders.keys()].map(orderIdOfFolder).filter((id): id is string => id !== null);
  const { orders, queue } = await ordersAndQueue(db, [...new Set(orderIds)]);
  const now = options.now ?? new Date();
  return [...folders].map(([name, files]) => {
    const orderId = orderIdOfFolder(name);
    return classifyFolder(name, files, orderId ? orders.get(orderId) ?? null : null, queue, now);
  });
}

/**
 * The files screen's listing in two parts, each of which may fail on its own (ADR 026): the
 * bucket's listing ("Не удалось загрузить файлы", thrown) and the orders behind the folders
 * ("Не удалось загрузить информацию о заказах"). Without the orders nothing can be judged garbage,
 * so the folders are listed with nothing deletable.
 */
export async function listStorageFoldersForScreen(db: DB, storage: FileStorage, now = new Date()): Promise<{ folders: ClassifiedFolder[]; ordersFailed: boolean }> {
  const folders = groupByFolder(await storage.list("orders", ""));
  const orderIds = [...new Set([...folders.keys()].map(orderIdOfFolder).filter((id): id is string => id !== null))];
  let lookups: Awaited<ReturnType<typeof ordersAndQueue>>;
  try {
    lookups = await ordersAndQueue(db, orderIds);
  } catch (error) {
    if (isDatabaseUnavailable(error)) throw error;
    logger.error("back-office: loading the orders of storage folders failed:", error);
    const unknown = [...folders].map(([name, files]) => ({
      name,
      orderId: orderIdOfFolder(name),
      files,
      size: files.reduce((sum, file) => sum + file.size, 0),
      order: null,
      verdict: "in_progress" as const,
      garbage: [],
      deletable: false,
    }));
    return { folders: unknown, ordersFailed: true };
  }
  return {
    folders: [...folders].map(([name, files]) => {
      const orderId = orderIdOfFolder(name);
      return classifyFolder(name, files, orderId ? lookups.orders.get(orderId) ?? null : null, lookups.queue, now);
    }),
    ordersFailed: false,
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

/** Deletes keys 100 at a time; a failing batch is reported and the others still run. */
async function deleteInBatches(storage: FileStorage, folders: ClassifiedFolder[], keysOf: (folder: ClassifiedFolder) => string[]): Promise<DeletionReport> {
  const keys = folders.flatMap((folder) => keysOf(folder));
  const failedKeys = new Set<string>();
  const errors: string[] = [];
  for (const batch of batches(keys, DELETE_BATCH)) {
    try {
      await storage.delete("orders", batch);
    } catch (error) {
      for (const key of batch) failedKeys.add(key);
      errors.push(error instanceof Error ? error.message : String(error));
    }
  }
  let deletedFolders = 0;
  let failedFolders = 0;
  for (const folder of folders) {
    const own = keysOf(folder);
    if (own.length === 0) continue;
    if (own.some((key) => failedKeys.has(key))) failedFolders++;
    else if (own.length === folder.files.length) deletedFolders++;
  }
  return {
    deletedFiles: keys.length - failedKeys.size,
    deletedFolders,
    failedFolders,
    errors,
  };
}

/** "Delete trash": every garbage file of the bucket, classified again at the moment of deleting. */
export async function deleteTrash(db: DB, storage: FileStorage): Promise<DeletionReport> {
  const folders = await listStorageFolders(db, storage);
  return deleteInBatches(storage, folders, (folder) => folder.garbage);
}

export type FolderDeletion =
  | { ok: true; report: DeletionReport }
  | {
      ok: false;
      reason: "not_found" | "not_allowed";
      folder?: ClassifiedFolder;
    };

/** Deletes one folder, only when all of it is garbage (DESIGN §4.18). */
export async function deleteFolder(db: DB, storage: FileStorage, name: string): Promise<FolderDeletion> {
  if (!orderIdOfFolder(name)) return { ok: false, reason: "not_allowed" };
  const [folder] = await listStorageFolders(db, storage, { folder: name });
  if (!folder) return { ok: false, reason: "not_found" };
  if (!folder.deletable) return { ok: false, reason: "not_allowed", folder };
  return {
    ok: true,
    report: await deleteInBatches(storage, [folder], (one) => one.garbage),
  };
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
  const cookie = resultCookie();
  const value = (await cookie.parse(request.headers.get("Cookie"))) as DeletionErrors | null;
  const headers = new Headers();
  if (!value) return { result: null, headers };
  headers.append("Set-Cookie", await cookie.serialize("", { maxAge: 0 }));
  return { result: Array.isArray(value.errors) ? value : null, headers };
}
