import { createHash } from "node:crypto";
import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createStorage, type FileStorage } from "~/modules/storage/storage.server";
import { startS3Server, type TestS3Server } from "../../support/s3-server";
import { generatedStream, measureRssGrowth, sha256Of } from "../../support/streams";

const MiB = 1024 * 1024;
const SIZE = 120 * MiB;
// Far below the body size: holding the file (or a good part of it) in memory would blow it.
const MAX_GROWTH = 80 * MiB;

function rssOfProcess(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
}

describe("S3 storage with a 120 MB file", () => {
  let server: TestS3Server;
  let storage: FileStorage;

  beforeAll(async () => {
    server = await startS3Server();
    storage = createStorage({ storage: server.storage, buckets: { orders: "large-orders", logos: "large-logos" } });
    await storage.ensureBuckets();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("streams it in and out with flat memory", { timeout: 180_000 }, async () => {
    const written = createHash("sha256");
    let serverPeak = 0;
    const watchServer = setInterval(() => {
      serverPeak = Math.max(serverPeak, rssOfProcess(server.pid));
    }, 50);

    const { result, growthBytes, baselineBytes } = await measureRssGrowth(async () => {
      const put = await storage.put("orders", "large/scan.stl", generatedStream(SIZE, written), {
        contentType: "model/stl",
        contentLength: SIZE,
      });
      const stored = await storage.get("orders", "large/scan.stl");
      const read = await sha256Of(stored!.body);
      return { put, size: stored!.size, read };
    });
    clearInterval(watchServer);

    console.info(
      `120 MiB via s3rver: test process RSS ${(baselineBytes / MiB).toFixed(0)} MiB at start, ` +
        `peak growth ${(growthBytes / MiB).toFixed(1)} MiB; s3rver process peak RSS ${(serverPeak / MiB).toFixed(0)} MiB`,
    );
    expect(result.put).toEqual({ size: SIZE });
    expect(result.size).toBe(SIZE);
    expect(result.read).toEqual({ hex: written.digest("hex"), bytes: SIZE });
    expect(growthBytes).toBeLessThan(MAX_GROWTH);
  });
});
