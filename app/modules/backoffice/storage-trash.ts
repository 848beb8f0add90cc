import type { OrderStatus, QueueStatus } from "~db/schema";
import { ABANDONED_DRAFT_DAYS } from "~/modules/config/retention";

/**
 * Which stored files are garbage (DESIGN §4.18). Pure, so each rule is a unit test.
 *
 * A folder `order_{id}/` is garbage only when its order no longer exists, is cancelled, is a draft
 * untouched for 30 days, or is completed/shipped with every file confirmed delivered to the
 * production file server. A file whose queue entry is not completed is never garbage. Anything in
 * the bucket that is not an order folder is left alone. "Untouched" is the rule of the scheduled
 * purge of abandoned drafts (same constant).
 */

const DAY_MS = 86_400_000;
const ORDER_FOLDER = /^order_([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

export interface StoredFile {
  key: string;
  size: number;
  /** When the object was last written; a file no list names is trash only once it is this old (ADR 063). */
  lastModified?: Date;
}

/** A file no list names may be an upload being recorded right now: it becomes trash after an hour. */
export const UNLISTED_GRACE_MS = 3_600_000;

export interface FolderOrder {
  id: string;
  status: OrderStatus;
  updatedAt: Date;
  fullName: string | null;
  email: string | null;
}

/** Why a folder may (or may not) be deleted; each has a text on the files screen. */
export type FolderVerdict =
  | "order_missing"
  | "cancelled"
  | "abandoned_draft"
  | "delivered"
  | "in_progress"
  | "recent_draft"
  | "not_delivered"
  | "queued_files"
  | "not_an_order_folder";

export interface ClassifiedFolder {
  name: string;
  orderId: string | null;
  files: StoredFile[];
  size: number;
  order: FolderOrder | null;
  verdict: FolderVerdict;
  /** Keys that may be deleted now; all of them when the whole folder is garbage. */
  garbage: string[];
  /** The whole folder may go. */
  deletable: boolean;
}

/** The top-level folder of a key (its first path segment), or the key itself for a loose object. */
export const folderOf = (key: string) => (key.includes("/") ? key.slice(0, key.indexOf("/")) : key);

/** `order_{uuid}` → the uuid; anything else → null. */
export function orderIdOfFolder(name: string): string | null {
  return ORDER_FOLDER.exec(name)?.[1]?.toLowerCase() ?? null;
}

export function groupByFolder(objects: readonly StoredFile[]): Map<string, StoredFile[]> {
  const folders = new Map<string, StoredFile[]>();
  for (const object of objects) {
    const name = folderOf(object.key);
    const files = folders.get(name);
    if (files) files.push(object);
    else folders.set(name, [object]);
  }
  return folders;
}

/**
 * Classifies one folder. `queue` maps a storage key to the status of its file-server queue entry
 * (absent: the file has none, e.g. it was removed from the order before sending). `listed`, when
 * given, holds the keys the order's file lists name: any other file older than the grace period is
 * trash whatever the order's state, unless a queue entry still waits for it (ADR 063).
 */
export function classifyFolder(
  name: string,
  files: StoredFile[],
  order: FolderOrder | null,
  queue: ReadonlyMap<string, QueueStatus>,
  now: Date,
  listed?: ReadonlySet<string>,
): ClassifiedFolder {
  const orderId = orderIdOfFolder(name);
  const size = files.reduce((sum, file) => sum + file.size, 0);
  const result = (verdict: FolderVerdict, garbage: string[]): ClassifiedFolder => ({
    name,
    orderId,
    files,
    size,
    order,
    verdict,
    garbage,
    deletable: files.length > 0 && garbage.length === files.length,
  });
  if (!orderId) return result("not_an_order_folder", []);
  const unsent = (file: StoredFile) => {
    const status = queue.get(file.key);
    return status !== undefined && status !== "completed";
  };

  if (!order) return result("order_missing", files.map((file) => file.key));
  const isListed = (file: StoredFile) => !listed || listed.has(file.key);
  const unlisted = files
    .filter((file) => !isListed(file) && !unsent(file) && file.lastModified !== undefined && now.getTime() - file.lastModified.getTime() > UNLISTED_GRACE_MS)
    .map((file) => file.key);
  const young = new Set(files.filter((file) => !isListed(file) && !unlisted.includes(file.key)).map((file) => file.key));
  const abandoned = order.status === "draft" && now.getTime() - order.updatedAt.getTime() > ABANDONED_DRAFT_DAYS * DAY_MS;
  if (order.status === "cancelled" || abandoned) {
    const garbage = files.filter((file) => !unsent(file) && !young.has(file.key)).map((file) => file.key);
    const verdict = garbage.length < files.length ? "queued_files" : order.status === "cancelled" ? "cancelled" : "abandoned_draft";
    return result(verdict, garbage);
  }
  if (order.status === "completed" || order.status === "shipped") {
    const delivered = files.filter(isListed).every((file) => queue.get(file.key) === "completed");
    return delivered ? result("delivered", files.filter((file) => !young.has(file.key)).map((file) => file.key)) : result("not_delivered", unlisted);
  }
  return result(order.status === "draft" ? "recent_draft" : "in_progress", unlisted);
}

/** Staff are warned about folders of orders awaiting payment or completed (staff side §2). */
export const needsWarning = (status: OrderStatus | undefined) => status === "pending" || status === "completed";

/** Splits a list into batches (storage deletions go 100 paths at a time). */
export function batches<T>(items: readonly T[], size: number): T[][] {
  const result: T[][] = [];
  for (let start = 0; start < items.length; start += size) result.push(items.slice(start, start + size));
  return result;
}
