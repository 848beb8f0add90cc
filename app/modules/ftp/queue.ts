import * as z from "zod/mini";
import { FILE_TYPES, type FileType, type QueueStatus } from "~db/schema";
import { listQuerySchema, oneOf, readQuery } from "~/modules/http/request/list-query";

/**
 * The pure side of the production file server queue (DESIGN §4.15–4.17, staff-partner-packer §4
 * "FTP queue", §9): filters of the back-office page, labels, retry delays and how stored error
 * messages are shown. Usable in the browser; the database side is queue.server.ts.
 */

/** Orders per page of /backoffice/ftp: the queue is listed by order, each with its files (an order holds at most 300). */
export const QUEUE_ORDERS_PER_PAGE = 20;
/** The page counts a filter's entries up to this many and says "more than" beyond (a lab's queue grows by a million in a few years). */
export const QUEUE_COUNT_CAP = 10_000;
/** …and its orders up to this many. */
export const QUEUE_ORDER_COUNT_CAP = 1_000;
/** An order with at most this many of the filter's files lists them all; a larger one is folded: its counts by state, and its failed files if no more than this (ADR 098). */
export const QUEUE_FILES_OPEN = 10;
/** The page refreshes itself this often while visible (JavaScript only). */
export const QUEUE_REFRESH_MS = 5_000;

export const STATUS_FILTERS = ["pending", "completed", "failed"] as const;
export type StatusFilter = (typeof STATUS_FILTERS)[number];
export const TYPE_FILTERS = ["all", ...FILE_TYPES] as const;
export type TypeFilter = (typeof TYPE_FILTERS)[number];

/** "Ожидает" lists the entries being sent as well: they are not delivered yet. */
export const STATUSES_OF_FILTER: Record<StatusFilter, readonly QueueStatus[]> = {
  pending: ["pending", "uploading"],
  completed: ["completed"],
  failed: ["failed"],
};

export interface QueueFilters {
  status: StatusFilter;
  type: TypeFilter;
  /** Keyset paging by order (ADR 068): the orders after this one (the next page)… */
  after: string | null;
  /** …or the orders before this one (the previous page). */
  before: string | null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** The queue pages by order: its cursor is an order's id. */
const orderCursor = z.pipe(
  z.unknown(),
  z.transform((value) => (typeof value === "string" && UUID.test(value) ? value.toLowerCase() : null)),
);

/**
 * The page's address through the list kit (ADR 067): the kit's status, its own file type and
 * order cursors; anything unknown falls back to the defaults (pending, all types, the first page).
 */
const queueQuery = listQuerySchema({ statuses: STATUS_FILTERS, defaultStatus: "pending" }, { type: oneOf(TYPE_FILTERS, "all"), after: orderCursor, before: orderCursor, open: orderCursor });

export function parseQueueFilters(source: Request | URL | URLSearchParams): QueueFilters {
  const { status, type, after, before } = readQuery(source, queueQuery);
  return { status: status ?? "pending", type, after, before };
}

/** What the page shows: its filters, and the order of the page whose files are all listed, folded or not (ADR 098). */
export interface QueueView extends QueueFilters {
  open: string | null;
}

export function parseQueueView(source: Request | URL | URLSearchParams): QueueView {
  const { open } = readQuery(source, queueQuery);
  return { ...parseQueueFilters(source), open };
}

/** The query string of a filter state (and its opened order), leaving out defaults ("" for the default view). */
export function queueFiltersSearch(filters: QueueFilters & { open?: string | null }): string {
  const params = new URLSearchParams();
  if (filters.status !== "pending") params.set("status", filters.status);
  if (filters.type !== "all") params.set("type", filters.type);
  if (filters.after) params.set("after", filters.after);
  else if (filters.before) params.set("before", filters.before);
  if (filters.open) params.set("open", filters.open);
  const search = params.toString();
  return search ? `?${search}` : "";
}

export const queueStatusLabelKey = (status: QueueStatus) => `ftp.status.${status}`;
export const fileTypeLabelKey = (type: FileType) => `ftp.fileType.${type}`;

export const DEFAULT_RETRY_BASE_MS = 60_000;
export const DEFAULT_RETRY_MAX_MS = 6 * 60 * 60_000;

/**
 * The wait after a failed attempt: exponential backoff — base, 2 × base, 4 × base… capped at `maxMs`
 * — with equal jitter, a random point in its upper half (ADR 084). Files that failed together (the
 * file server went down with several in flight, or several workers) come back spread over that half
 * instead of all at the same moment, and none sooner than half its backoff, so a server that just
 * failed is not asked again at once. `attempts` counts the attempt that just failed (1 after the
 * first failure); `random` gives a number in [0, 1).
 */
export function retryDelayMs(attempts: number, baseMs = DEFAULT_RETRY_BASE_MS, maxMs = DEFAULT_RETRY_MAX_MS, random: () => number = Math.random): number {
  const exponent = Math.min(Math.max(attempts, 1) - 1, 30);
  const backoff = Math.min(baseMs * 2 ** exponent, maxMs);
  return Math.round(backoff / 2 + (backoff / 2) * random());
}

/** The spec's text for a file that could not be read from storage (§8), stored as the entry's error. */
export const STORAGE_ERROR_PREFIX = "Ошибка загрузки файла из storage: ";

export function storageErrorMessage(detail: string): string {
  return `${STORAGE_ERROR_PREFIX}${detail}`;
}

/**
 * How a stored error message is shown: storage errors through the translated spec text, anything
 * else (messages of the SFTP server or the network) as it is, since it is a diagnostic.
 */
export function describeQueueError(message: string | null | undefined): { key: string; values: Record<string, string> } | null {
  if (!message) return null;
  if (message.startsWith(STORAGE_ERROR_PREFIX)) return { key: "ftp.errors.storage", values: { message: message.slice(STORAGE_ERROR_PREFIX.length) } };
  return { key: "ftp.errors.server", values: { message } };
}
