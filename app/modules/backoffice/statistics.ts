import type { Currency } from "~db/schema";
import type { CodeSpaceUsage } from "~/modules/orders/order-codes";

/**
 * The dashboard statistics (staff side §9): orders created in the last 30 days against the 30 days
 * before, counting only the paid set (DESIGN §4.2). Money is summed per currency: roubles and euros
 * are never added together. Pure, so the rounding and the zero rule are unit-tested.
 */

export const STATISTICS_WINDOW_DAYS = 30;

/** Percent change, rounded; with nothing to compare against it is 100 when there is something now, else 0. */
export function percentChange(current: number, previous: number): number {
  if (previous === 0) return current > 0 ? 100 : 0;
  return Math.round(((current - previous) / previous) * 100);
}

export interface WindowRow {
  currency: Currency;
  /** "current": the last 30 days; "previous": the 30 days before. */
  window: "current" | "previous";
  count: number;
  revenue: number;
}

export interface Figure {
  current: number;
  previous: number;
  change: number;
}

export interface Statistics {
  count: Figure;
  /** Per currency that has orders in either window (roubles first). */
  money: Array<{ currency: Currency; revenue: Figure; average: Figure }>;
}

/** What the dashboard shows: the statistics, and how full the order code space is (ADR 038). */
export interface DashboardStatistics extends Statistics {
  codes: CodeSpaceUsage;
}

const figure = (current: number, previous: number): Figure => ({ current, previous, change: percentChange(current, previous) });
/** Average order value in minor units, rounded half up to a whole minor unit (0 without orders). */
export const averageOf = (revenue: number, count: number) => (count === 0 ? 0 : Math.round(revenue / count));

export function buildStatistics(rows: readonly WindowRow[]): Statistics {
  const sum = (window: WindowRow["window"], currency?: Currency, field: "count" | "revenue" = "count") =>
    rows.filter((row) => row.window === window && (currency === undefined || row.currency === currency)).reduce((total, row) => total + row[field], 0);
  const currencies = (["rub", "eur"] as const).filter((currency) => rows.some((row) => row.currency === currency && row.count > 0));
  return {
    count: figure(sum("current"), sum("previous")),
    money: currencies.map((currency) => {
      const now = { count: sum("current", currency), revenue: sum("current", currency, "revenue") };
      const before = { count: sum("previous", currency), revenue: sum("previous", currency, "revenue") };
      return {
        currency,
        revenue: figure(now.revenue, before.revenue),
        average: figure(averageOf(now.revenue, now.count), averageOf(before.revenue, before.count)),
      };
    }),
  };
}
