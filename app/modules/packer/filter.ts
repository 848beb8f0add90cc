import type { OrderStatus } from "~db/schema";
import { ORDER_STATUSES } from "~/modules/orders/status";
import { withoutForbiddenCharacters } from "~/modules/validation/text";

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
}

/** The packer never sees drafts (staff-partner-packer §4). */
export const PACKER_STATUSES: readonly OrderStatus[] = ORDER_STATUSES.filter((status) => status !== "draft");
/** Orders to pack: paid, or in work. */
export const TO_PACK: readonly OrderStatus[] = ["paid", "processing"];

/** The one place the packer list's query is read (a shared list kit may take this over). */
export function parsePackerFilter(params: URLSearchParams): PackerFilter {
  const status = params.get("status");
  const view = (PACKER_VIEWS as readonly string[]).includes(params.get("view") ?? "") ? (params.get("view") as PackerView) : "topack";
  return {
    view,
    q: withoutForbiddenCharacters(params.get("q") ?? "").trim().slice(0, 100),
    status: view === "all" && PACKER_STATUSES.includes(status as OrderStatus) ? (status as OrderStatus) : null,
    page: Math.min(10_000, Math.max(1, Number.parseInt(params.get("page") ?? "1", 10) || 1)),
  };
}

/** "?q=…&status=…&page=…" with defaults left out ("" for the plain list). */
export function filterQuery(filter: PackerFilter, page = filter.page): string {
  const params = new URLSearchParams();
  if (filter.view !== "topack") params.set("view", filter.view);
  if (filter.q) params.set("q", filter.q);
  if (filter.status) params.set("status", filter.status);
  if (page > 1) params.set("page", String(page));
  const query = params.toString();
  return query ? `?${query}` : "";
}

/** Where the packer goes back to after a form: the list with the filter it had, nothing else. */
export function packerListUrl(query: string | null, anchor?: string): string {
  return `/packer${filterQuery(parsePackerFilter(new URLSearchParams(query ?? "")))}${anchor ? `#${anchor}` : ""}`;
}
