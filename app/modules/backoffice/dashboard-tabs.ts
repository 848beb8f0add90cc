import * as z from "zod/mini";
import { ORDER_STATUSES, type OrderStatus } from "~/modules/orders/status";
import {
  flag,
  listQuerySchema,
  oneOf,
  readQuery,
} from "~/modules/http/request/list-query";

/** The dashboard's tabs (ADR 066): what needs staff (paid and in work), each status, and every order (the specification's view). */
export const WORK_STATUSES: readonly OrderStatus[] = ["paid", "processing"];
/** "Ждут ответа" (ADR 104): orders whose thread waits for the lab, in any status, the longest-waiting first. */
export type DashboardTab = "work" | "waiting" | "all" | OrderStatus;
export const DASHBOARD_TABS: readonly DashboardTab[] = [
  "work",
  "waiting",
  ...ORDER_STATUSES,
  "all",
];

/** The statuses a tab shows, or null for every status. */
export const tabStatuses = (tab: DashboardTab): readonly OrderStatus[] | null =>
  tab === "all" || tab === "waiting" ? null : tab === "work" ? WORK_STATUSES : [tab];

/** The order a tab's page is read in: "Ждут ответа" always the longest-waiting first; the others as chosen. */
export const tabOrder = (tab: DashboardTab, sort: DashboardSort, dir: "asc" | "desc") =>
  tab === "waiting" ? { sort: "waiting" as const, dir: "asc" as const } : { sort, dir };

/** The table's sorts (ADR 067), each with its first direction: newest, largest, and the statuses in their own order. */
export const DASHBOARD_SORTS = {
  date: "desc",
  total: "desc",
  status: "asc",
} as const;
export type DashboardSort = keyof typeof DASHBOARD_SORTS;
export const ORDER_VIEWS = ["cards", "table"] as const;
export type OrdersView = (typeof ORDER_VIEWS)[number];

/**
 * The dashboard's address through the list kit (ADR 066, 067). `status` names a tab; the old empty
 * value means "Все", and without one the page opens on "К работе" unless it searches (every order).
 * `view` is null unless the address names one: then the staff member's remembered view shows.
 */
export const dashboardQuery = listQuerySchema(
  { sorts: DASHBOARD_SORTS },
  {
    status: z.pipe(
      z.unknown(),
      z.transform((value): DashboardTab | null =>
        value === ""
          ? "all"
          : (DASHBOARD_TABS as readonly unknown[]).includes(value)
          ? (value as DashboardTab)
          : null
      )
    ),
    view: oneOf(ORDER_VIEWS, null),
    empty: flag,
  }
);

export function readDashboardQuery(source: Request | URL | URLSearchParams) {
  return readQuery(source, dashboardQuery);
}
