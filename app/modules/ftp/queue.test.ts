import { describe, expect, it } from "vitest";
import { describeQueueError, parseQueueFilters, queueFiltersSearch, retryDelayMs, STATUSES_OF_FILTER, storageErrorMessage } from "./queue";

const ORDER = "0a1b2c3d-0000-4000-8000-000000000001";
const FIRST = { status: "pending", type: "all", after: null, before: null };

describe("parseQueueFilters", () => {
  it("defaults to pending entries of every type, the first page", () => {
    expect(parseQueueFilters(new URLSearchParams())).toEqual(FIRST);
  });

  it("reads known values and an order as the cursor", () => {
    expect(parseQueueFilters(new URLSearchParams(`status=failed&type=retainer&after=${ORDER.toUpperCase()}`))).toEqual({ status: "failed", type: "retainer", after: ORDER, before: null });
    expect(parseQueueFilters(new URLSearchParams(`before=${ORDER}`))).toEqual({ ...FIRST, before: ORDER });
    // One direction at a time: "after" wins.
    expect(parseQueueFilters(new URLSearchParams(`before=${ORDER}&after=${ORDER}`))).toEqual({ ...FIRST, after: ORDER });
  });

  it.each([
    ["status=uploading", FIRST],
    ["status=all&type=retainer", { ...FIRST, type: "retainer" }],
    ["type=aligner", FIRST],
    ["page=3", FIRST],
    ["after=1' or 1=1--", FIRST],
    ["before=abc&status=completed", { ...FIRST, status: "completed" }],
  ])("falls back on unknown values: %s", (query, expected) => {
    expect(parseQueueFilters(new URLSearchParams(query))).toEqual(expected);
  });
});

describe("queueFiltersSearch", () => {
  it("leaves defaults out and round-trips", () => {
    expect(queueFiltersSearch({ status: "pending", type: "all", after: null, before: null })).toBe("");
    const search = queueFiltersSearch({ status: "failed", type: "matrix", after: ORDER, before: null });
    expect(search).toBe(`?status=failed&type=matrix&after=${ORDER}`);
    expect(parseQueueFilters(new URLSearchParams(search))).toEqual({ status: "failed", type: "matrix", after: ORDER, before: null });
  });
});

describe("the pending filter", () => {
  it("lists entries being sent with the waiting ones", () => {
    expect(STATUSES_OF_FILTER.pending).toEqual(["pending", "uploading"]);
  });
});

describe("retryDelayMs", () => {
  const lowest = () => 0;
  const highest = () => 1 - Number.EPSILON;

  it("waits between half and the whole of a backoff that doubles after each failed attempt", () => {
    expect([1, 2, 3, 4, 5].map((attempts) => retryDelayMs(attempts, 1000, 60_000, lowest))).toEqual([500, 1000, 2000, 4000, 8000]);
    expect([1, 2, 3, 4, 5].map((attempts) => retryDelayMs(attempts, 1000, 60_000, highest))).toEqual([1000, 2000, 4000, 8000, 16_000]);
    expect(retryDelayMs(3, 1000, 60_000, () => 0.5)).toBe(3000);
  });

  it("is capped, the jitter within the cap", () => {
    expect(retryDelayMs(20, 1000, 60_000, highest)).toBe(60_000);
    expect(retryDelayMs(20, 1000, 60_000, lowest)).toBe(30_000);
    expect(retryDelayMs(1000, 60_000, undefined, highest)).toBe(6 * 60 * 60_000);
  });

  it("treats 0 attempts as the first", () => {
    expect(retryDelayMs(0, 500, 10_000, lowest)).toBe(250);
    expect(retryDelayMs(0, 500, 10_000, highest)).toBe(500);
  });

  it("never leaves its bounds with the real random source", () => {
    for (let attempts = 1; attempts <= 12; attempts++) {
      const backoff = Math.min(1000 * 2 ** (attempts - 1), 600_000);
      for (let i = 0; i < 500; i++) {
        const delay = retryDelayMs(attempts, 1000, 600_000);
        expect(delay).toBeGreaterThanOrEqual(backoff / 2);
        expect(delay).toBeLessThanOrEqual(backoff);
      }
    }
  });

  it("spreads files that failed together over the upper half of their backoff", () => {
    // 2,000 files failing their third attempt at the same moment: backoff 4 s, so 2–4 s.
    const delays = Array.from({ length: 2000 }, () => retryDelayMs(3, 1000, 60_000));
    const tenths = Array.from({ length: 10 }, () => 0);
    for (const delay of delays) tenths[Math.min(9, Math.floor((delay - 2000) / 200))]!++;
    // Each tenth of the range gets about 200 (a 5-sigma margin either way), none is empty or crowded.
    for (const count of tenths) {
      expect(count).toBeGreaterThan(130);
      expect(count).toBeLessThan(270);
    }
    expect(new Set(delays).size).toBeGreaterThan(1000);
    const mean = delays.reduce((sum, delay) => sum + delay, 0) / delays.length;
    expect(mean).toBeGreaterThan(2900);
    expect(mean).toBeLessThan(3100);
  });
});

describe("stored error messages", () => {
  it("keep the spec's text for storage failures and show it translated", () => {
    const message = storageErrorMessage("NoSuchKey");
    expect(message).toBe("Ошибка загрузки файла из storage: NoSuchKey");
    expect(describeQueueError(message)).toEqual({ key: "ftp.errors.storage", values: { message: "NoSuchKey" } });
  });

  it("show server messages as they are", () => {
    expect(describeQueueError("SFTP: connect ECONNREFUSED")).toEqual({ key: "ftp.errors.server", values: { message: "SFTP: connect ECONNREFUSED" } });
    expect(describeQueueError(null)).toBeNull();
    expect(describeQueueError("")).toBeNull();
  });
});
