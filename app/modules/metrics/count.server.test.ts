import { describe, expect, it } from "vitest";
import { countPayment, countUploadRefusal, instruments, statusClass, watchPool } from "./count.server";

/** The counting module (ADR 073): labels from fixed lists only, every series there from the start. */

const valueOf = async (name: string, labels: Record<string, string>) => {
  const metric = (await instruments().registry.getMetricsAsJSON()).find((candidate) => candidate.name === name);
  const found = (metric?.values ?? []).filter((value) => Object.entries(labels).every(([key, wanted]) => value.labels[key] === wanted));
  return found.length === 1 ? found[0]!.value : Number.NaN;
};

describe("the metrics' counters", () => {
  it("count what a visitor names outside the lists as other, so no request adds a series", async () => {
    const before = await valueOf("aligner_upload_refusals_total", { reason: "other" });
    countUploadRefusal("not_stl");
    countUploadRefusal("<script>alert(1)</script>");
    countUploadRefusal("a".repeat(10_000));
    expect(await valueOf("aligner_upload_refusals_total", { reason: "other" })).toBe(before + 2);
    countPayment("paypal", "paid");
    expect(await valueOf("aligner_payments_total", { provider: "other", outcome: "paid" })).toBe(1);
    const reasons = (await instruments().registry.getMetricsAsJSON()).find((metric) => metric.name === "aligner_upload_refusals_total")!.values.map((value) => value.labels.reason);
    expect(reasons).not.toContain("<script>alert(1)</script>");
  });

  it("start every bounded combination at zero", async () => {
    expect(await valueOf("aligner_orders_paid_total", { market: "international" })).toBe(0);
    expect(await valueOf("aligner_payments_total", { provider: "stripe", outcome: "update_failed" })).toBe(0);
    expect(await valueOf("aligner_ftp_transfers_total", { outcome: "lease_lost" })).toBe(0);
    expect(await valueOf("aligner_mails_total", { result: "failed" })).toBe(0);
  });

  it("read the pools' connections when read, and forget a pool that ended", async () => {
    const pool = { totalCount: 7, idleCount: 2, waitingCount: 3, options: { max: 10 }, ending: false };
    watchPool(pool);
    expect(await valueOf("aligner_db_pool_in_use", {})).toBe(5);
    expect(await valueOf("aligner_db_pool_waiting", {})).toBe(3);
    expect(await valueOf("aligner_db_pool_max", {})).toBe(10);
    pool.ending = true;
    expect(await valueOf("aligner_db_pool_in_use", {})).toBe(0);
  });

  it("name status classes", () => {
    expect([200, 302, 404, 503].map(statusClass)).toEqual(["2xx", "3xx", "4xx", "5xx"]);
  });
});
