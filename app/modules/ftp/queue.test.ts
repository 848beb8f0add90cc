import { describe, expect, it } from "vitest";
import { describeQueueError, parseQueueFilters, queueFiltersSearch, retryDelayMs, STATUSES_OF_FILTER, storageErrorMessage } from "./queue";

describe("parseQueueFilters", () => {
  it("defaults to pending entries of every type, page 1", () => {
    expect(parseQueueFilters(new URLSearchParams())).toEqual({ status: "pending", type: "all", page: 1 });
  });

  it("reads known values", () => {
    expect(parseQueueFilters(new URLSearchParams("status=failed&type=retainer&page=3"))).toEqual({ status: "failed", type: "retainer", page: 3 });
    expect(parseQueueFilters(new URLSearchParams("status=completed&type=aligners"))).toMatchObject({ status: "completed", type: "aligners" });
  });

  it.each([
    ["status=uploading", { status: "pending", type: "all", page: 1 }],
    ["status=all&type=retainer", { status: "pending", type: "retainer", page: 1 }],
    ["type=aligner", { status: "pending", type: "all", page: 1 }],
    ["page=0", { status: "pending", type: "all", page: 1 }],
    ["page=-2&status=completed", { status: "completed", type: "all", page: 1 }],
    ["page=abc", { status: "pending", type: "all", page: 1 }],
    ["page=99999999999999999999", { status: "pending", type: "all", page: 1 }],
  ])("falls back on unknown values: %s", (query, expected) => {
    expect(parseQueueFilters(new URLSearchParams(query))).toEqual(expected);
  });
});

describe("queueFiltersSearch", () => {
  it("leaves defaults out and round-trips", () => {
    expect(queueFiltersSearch({ status: "pending", type: "all", page: 1 })).toBe("");
    const search = queueFiltersSearch({ status: "failed", type: "matrix", page: 2 });
    expect(search).toBe("?status=failed&type=matrix&page=2");
    expect(parseQueueFilters(new URLSearchParams(search))).toEqual({ status: "failed", type: "matrix", page: 2 });
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
