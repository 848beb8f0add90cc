import { describe, expect, it } from "vitest";
import { averageOf, buildStatistics, percentChange } from "./statistics";

describe("dashboard statistics", () => {
  it("rounds the percent change and applies the zero rule", () => {
    expect(percentChange(3, 2)).toBe(50);
    expect(percentChange(2, 3)).toBe(-33);
    expect(percentChange(1, 3)).toBe(-67);
    expect(percentChange(7, 6)).toBe(17);
    expect(percentChange(5, 0)).toBe(100);
    expect(percentChange(0, 0)).toBe(0);
    expect(percentChange(0, 4)).toBe(-100);
  });

  it("counts all currencies together but never adds roubles to euros", () => {
    const statistics = buildStatistics([
      { currency: "rub", window: "current", count: 3, revenue: 3_000_000 },
      { currency: "rub", window: "previous", count: 2, revenue: 2_500_000 },
      { currency: "eur", window: "current", count: 1, revenue: 18_200 },
    ]);
    expect(statistics.count).toEqual({ current: 4, previous: 2, change: 100 });
    expect(statistics.money).toEqual([
      { currency: "rub", revenue: { current: 3_000_000, previous: 2_500_000, change: 20 }, average: { current: 1_000_000, previous: 1_250_000, change: -20 } },
      { currency: "eur", revenue: { current: 18_200, previous: 0, change: 100 }, average: { current: 18_200, previous: 0, change: 100 } },
    ]);
  });

  it("shows nothing per currency without orders, and averages to whole minor units", () => {
    expect(buildStatistics([])).toEqual({ count: { current: 0, previous: 0, change: 0 }, money: [] });
    expect(averageOf(1_000_001, 2)).toBe(500_001);
    expect(averageOf(0, 0)).toBe(0);
  });
});
