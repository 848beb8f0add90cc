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
  it("doubles from the base after each failed attempt", () => {
    expect([1, 2, 3, 4, 5].map((attempts) => retryDelayMs(attempts, 1000, 60_000))).toEqual([1000, 2000, 4000, 8000, 16_000]);
  });

  it("is capped", () => {
    expect(retryDelayMs(20, 1000, 60_000)).toBe(60_000);
    expect(retryDelayMs(1000, 60_000)).toBe(6 * 60 * 60_000);
  });

  it("treats 0 attempts as the first", () => {
    expect(retryDelayMs(0, 500, 10_000)).toBe(500);
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
