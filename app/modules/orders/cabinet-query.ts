import { withoutForbiddenCharacters } from "~/modules/validation/text";
import { CABINET_STATUSES, type OrderStatus } from "./status";

/**
 * The cabinet's list query (ADR 070): tabs, sort and the page's start, read from the address in one
 * function, so the list can move onto the shared list-page kit without touching the page.
 */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A tab counts its orders up to this many ("1000+"): the count costs what it shows, whatever a clinic holds. */
export const CABINET_COUNT_CAP = 1000;
export const CABINET_TABS = ["all", ...CABINET_STATUSES] as const;
export type CabinetTab = (typeof CABINET_TABS)[number];
export const CABINET_SORTS = ["newest", "oldest"] as const;
export type CabinetSort = (typeof CABINET_SORTS)[number];

/** Where a page of the list starts: the last order shown, as the database wrote its time (microseconds kept). */
export interface CabinetCursor {
  createdAt: string;
  id: string;
}

export interface CabinetQuery {
  search: string;
  status: OrderStatus | null;
  sort: CabinetSort;
  after: CabinetCursor | null;
}

const CURSOR_TIME = /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}(\.\d{1,6})?([+-]\d{2}(:?\d{2})?|Z)$/;

/**
 * The cabinet's query, read in one place: `q` (search), `status` (a tab), `sort`, `after` (the
 * page's start). Anything unknown or malformed reads as its default: a bad link shows the first page.
 */
export function readCabinetQuery(url: URL): CabinetQuery {
  const params = url.searchParams;
  const search = withoutForbiddenCharacters(params.get("q") ?? "").trim().slice(0, 200);
  const statusParam = params.get("status");
  const status = CABINET_STATUSES.includes(statusParam as OrderStatus) ? (statusParam as OrderStatus) : null;
  const sort: CabinetSort = params.get("sort") === "oldest" ? "oldest" : "newest";
  const [createdAt = "", id = ""] = (params.get("after") ?? "").split("_");
  const after = CURSOR_TIME.test(createdAt) && isCalendarDate(createdAt.slice(0, 10)) && UUID.test(id) ? { createdAt, id } : null;
  return { search, status, sort, after };
}

/** "2026-02-30" is not a day: the database would refuse it with an error rather than a page. */
function isCalendarDate(text: string): boolean {
  const [year = 0, month = 0, day = 0] = text.split("-").map(Number);
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

export const cursorParam = (cursor: CabinetCursor) => `${cursor.createdAt}_${cursor.id}`;

