import { describe, expect, it } from "vitest";
import type { DB } from "~/modules/db/db.server";
import { meteredRequest, uploadAllowanceOf, UploadVolumeExceeded, volumeMeter } from "./upload-quota.server";

const MiB = 1024 * 1024;
const LIMITS = { anonymousBytesPerHour: 3 * 1024 * MiB, clientBytesPerDay: 20 * 1024 * MiB, orderMaxBytes: 5 * 1024 * MiB, orderMaxFiles: 300 };

/** The counter as `hitRateLimit` keeps it in `rate_limits`: one row per key, the amounts added. */
function countingDb(start = 0) {
  const hits: number[] = [];
  let count = start;
  const db = {
    insertInto: () => ({
      values: (row: { count: number }) => ({
        onConflict: () => ({
          returning: () => ({
            executeTakeFirstOrThrow: async () => {
              hits.push(row.count);
              count += row.count;
              return { count, retry_after: 60 };
            },
          }),
        }),
      }),
    }),
  } as unknown as DB;
  return { db, hits, total: () => count };
}

describe("whose allowance an upload counts against", () => {
  it("an anonymous visitor's address by the hour, a signed-in client's account by the day, staff nobody's", () => {
    expect(uploadAllowanceOf({ userEmail: null, isStaff: false }, "203.0.113.7", LIMITS)).toEqual({ key: "upload:203.0.113.7", limitMiB: 3072, windowSeconds: 3600, reason: "rate_limited" });
    expect(uploadAllowanceOf({ userEmail: "Dr@Clinic.ru", isStaff: false }, "203.0.113.7", LIMITS)).toEqual({ key: "upload:account:dr@clinic.ru", limitMiB: 20480, windowSeconds: 86400, reason: "daily_limit" });
    expect(uploadAllowanceOf({ userEmail: "staff@lab.ru", isStaff: true }, "203.0.113.7", LIMITS)).toBeNull();
  });
});

describe("counting the bytes that arrive", () => {
  const allowance = { key: "upload:x", limitMiB: 10, windowSeconds: 3600, reason: "rate_limited" as const };
  const body = (chunks: number[]) =>
    new Request("http://x/order", {
      method: "POST",
      body: new ReadableStream<Uint8Array>({
        start(controller) {
          for (const size of chunks) controller.enqueue(new Uint8Array(size));
          controller.close();
        },
      }),
      duplex: "half",
    } as RequestInit);

  it("counts in steps of 4 MiB and the rest rounded up to a MiB at the end, whatever the request declares", async () => {
    const { db, hits, total } = countingDb();
    const request = body([3 * MiB, 3 * MiB, 100]);
    request.headers.set("Content-Length", "1");
    const counted = meteredRequest(request, volumeMeter(db, allowance));
    expect((await counted.arrayBuffer()).byteLength).toBe(6 * MiB + 100);
    expect(hits).toEqual([6, 1]);
    expect(total()).toBe(7);
  });

  it("fails the body once the allowance is passed, and passes on nothing of the chunk that passed it", async () => {
    const { db } = countingDb(8);
    const meter = volumeMeter(db, allowance);
    const reader = meteredRequest(body([1 * MiB, 4 * MiB, 1 * MiB]), meter).body!.getReader();
    expect((await reader.read()).value?.byteLength).toBe(1 * MiB);
    await expect(reader.read()).rejects.toBeInstanceOf(UploadVolumeExceeded);
    expect(meter.exceeded?.reason).toBe("rate_limited");
  });
});
