import type { OrderStatus } from "~db/schema";
import { ORDER_STATUSES } from "~/modules/orders/status";
import { type Cursor, encodeCursor, listQuerySchema, oneOf, readQuery } from "~/modules/http/request/list-query";

/**
 * The packer's views (ADR 068): the orders to pack (paid and in work, not yet marked packed) by
 * default, the packed ones waiting to be shipped, and every non-draft order — the specification's
 * list, with its status filter.
 */
export const PACKER_VIEWS = ["topack", "packed", "all"] as const;
export type PackerView = (typeof PACKER_VIEWS)[number];

/** The packer list's view, search, status filter and page, read from and written to the query string. */
export interface PackerFilter {
  view: PackerView;
  q: string;
  /** Only in the "all" view. */
  status: OrderStatus | null;
  page: number;
  /** Keyset cursors of the pager's links (ADR 091). */
  after: Cursor | null;
  before: Cursor | null;
}

/** Orders on one page of the packer's list. */
export const PACKER_PAGE_SIZE = 50;

/** The packer never sees drafts (staff-partner-packer §4). */
export const PACKER_STATUSES: readonly OrderStatus[] = ORDER_STATUSES.filter((status) => status !== "draft");
/** Orders to pack: paid, or in work. */
export const TO_PACK: readonly OrderStatus[] = ["paid", "processing"];

/** The packer list's address through the list kit (ADR 067): its view, and the kit's search, status and page. */
const packerQuery = listQuerySchema({ statuses: PACKER_STATUSES }, { view: oneOf(PACKER_VIEWS, "topack") });

export function parsePackerFilter(source: Request | URL | URLSearchParams): PackerFilter {
  const { view, q, status, page, after, before } = readQuery(source, packerQuery);
  // The status filter belongs to the list of every order; the other views are their own filter.
  return { view, q, status: view === "all" ? status : null, page: Math.min(10_000, page), after, before };
}

/** "?q=…&status=…&page=…" with defaults left out ("" for the plain list). */
export function filterQuery(filter: PackerFilter, page = filter.page): string {
  const params = new URLSearchParams();
  if (filter.view !== "topack") params.set("view", filter.view);
  if (filter.q) params.set("q", filter.q);
  if (filter.status) params.set("status", filter.status);
  if (page > 1) params.set("page", String(page));
  // The same page keeps its cursor, so a form's way back shows the rows it was on (ADR 091).
  if (page > 1 && page === filter.page && filter.after) params.set("after", encodeCursor(filter.after));
  else if (page > 1 && page === filter.page && filter.before) params.set("before", encodeCursor(filter.before));
  const query = params.toString();
  return query ? `?${query}` : "";
}

/** Where the packer goes back to after a form: the list with the filter it had, nothing else. */
export function packerListUrl(query: string | null, anchor?: string): string {
  return `/packer${filterQuery(parsePackerFilter(new URLSearchParams(query ?? "")))}${anchor ? `#${anchor}` : ""}`;
}
