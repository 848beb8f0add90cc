import { ORDER_STATUSES, type OrderStatus } from "~/modules/orders/status";

/** The dashboard's tabs (ADR 066): what needs staff (paid and in work), each status, and every order (the specification's view). */
export const WORK_STATUSES: readonly OrderStatus[] = ["paid", "processing"];
export type DashboardTab = "work" | "all" | OrderStatus;
export const DASHBOARD_TABS: readonly DashboardTab[] = ["work", ...ORDER_STATUSES, "all"];

/** The statuses a tab shows, or null for every status. */
export const tabStatuses = (tab: DashboardTab): readonly OrderStatus[] | null => (tab === "all" ? null : tab === "work" ? WORK_STATUSES : [tab]);
