import * as z from "zod/mini";
import { decodeCursor, encodeCursor, flag, listQuerySchema, oneOf, readQuery } from "~/modules/http/request/list-query";
import { CABINET_STATUSES, type OrderStatus } from "~/modules/orders/status";

/** The cabinet's list query (ADR 070): tabs, sort and the page's start, on the list kit (ADR 067). */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A tab counts its orders up to this many ("1000+"): the count costs what it shows, whatever a clinic holds. */
export const CABINET_COUNT_CAP = 1000;
export const CABINET_TABS = ["all", ...CABINET_STATUSES] as const;
export const CABINET_SORTS = ["newest", "oldest"] as const;
export type CabinetSort = (typeof CABINET_SORTS)[number];

/** Where a page of the list starts: the last order shown, its time as the database wrote it (microseconds kept). */
export interface CabinetCursor {
  createdAt: string;
  id: string;
}

export interface CabinetQuery {
  search: string;
  status: OrderStatus | null;
  sort: CabinetSort;
  after: CabinetCursor | null;
  /** "Нужен ваш ответ" (ADR 104): only the orders whose thread waits for the clinic. */
  answer: boolean;
}

/** The keyset encoding's time (ADR 091): UTC to the microsecond, as `keysetTimestamp` writes it. */
const KEYSET_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
/** The form links written before it carried (`time_id`, the time as PostgreSQL prints it): still read, so a kept link keeps its page. */
const CURSOR_TIME = /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}(\.\d{1,6})?([+-]\d{2}(:?\d{2})?|Z)$/;

/**
 * A page's start as the cabinet's links write it — the list kit's cursor of the order's time and id
 * (ADR 091, 098) — or as they wrote it before (`time_id`); null for anything else.
 */
function cabinetCursor(value: unknown): CabinetCursor | null {
  if (typeof value !== "string" || value.length > 100) return null;
  const encoded = decodeCursor(value);
  if (encoded) {
    const [createdAt, id] = encoded;
    return encoded.length === 2 && typeof createdAt === "string" && KEYSET_TIME.test(createdAt) && isCalendarDate(createdAt.slice(0, 10)) && typeof id === "string" && UUID.test(id) ? { createdAt, id } : null;
  }
  const [createdAt = "", id = ""] = value.split("_");
  return CURSOR_TIME.test(createdAt) && isCalendarDate(createdAt.slice(0, 10)) && UUID.test(id) ? { createdAt, id } : null;
}

/**
 * The cabinet's address through the list kit (ADR 067): `q` and `status` (a tab) as every list's,
 * its own `sort` and `after` (the page's start). Anything unknown or malformed reads as its default:
 * a bad link shows the first page.
 */
export const cabinetQuery = listQuerySchema(
  { statuses: CABINET_STATUSES },
  { sort: oneOf(CABINET_SORTS, "newest"), after: z.pipe(z.unknown(), z.transform(cabinetCursor)), answer: flag },
);

export function readCabinetQuery(source: Request | URL): CabinetQuery {
  const { q: search, status, sort, after, answer } = readQuery(source, cabinetQuery);
  return { search, status, sort, after, answer };
}

/** "2026-02-30" is not a day: the database would refuse it with an error rather than a page. */
function isCalendarDate(text: string): boolean {
  const [year = 0, month = 0, day = 0] = text.split("-").map(Number);
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** The `after=` of a page's "next" link: the list kit's cursor (ADR 091). */
export const cursorParam = (cursor: CabinetCursor) => encodeCursor([cursor.createdAt, cursor.id]);

