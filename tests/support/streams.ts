import { createHash, randomBytes, type Hash } from "node:crypto";
import { Readable } from "node:stream";
import v8 from "node:v8";
import vm from "node:vm";

/**
 * `totalBytes` of random data made on demand, chunk by chunk as the consumer reads, so even a
 * large body never exists in memory at once. Pass `hash` to fingerprint what was produced.
 */
export function generatedStream(totalBytes: number, hash?: Hash, chunkBytes = 1024 * 1024): Readable {
  let produced = 0;
  return new Readable({
    highWaterMark: chunkBytes,
    read() {
      if (produced >= totalBytes) {
        this.push(null);
        return;
      }
      const chunk = randomBytes(Math.min(chunkBytes, totalBytes - produced));
      produced += chunk.length;
      hash?.update(chunk);
      this.push(chunk);
    },
  });
}

/** A stream that yields `beforeError` bytes, then fails like a dropped client upload. */
export function failingStream(beforeError: number, message = "client went away"): Readable {
  let sent = false;
  return new Readable({
    read() {
      if (sent) {
        this.destroy(new Error(message));
        return;
      }
      sent = true;
      this.push(randomBytes(beforeError));
    },
  });
}

export async function sha256Of(stream: AsyncIterable<Buffer | string>): Promise<{ hex: string; bytes: number }> {
  const hash = createHash("sha256");
  let bytes = 0;
  for await (const chunk of stream) {
    hash.update(chunk);
    bytes += typeof chunk === "string" ? Buffer.byteLength(chunk) : chunk.length;
  }
  return { hex: hash.digest("hex"), bytes };
}

export async function textOf(stream: AsyncIterable<Buffer | string>): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks).toString("utf8");
}

let collectGarbage: (() => void) | undefined;

/**
 * V8 lets tens of megabytes of unreferenced Buffer memory pile up before it collects them, which
 * makes RSS jump around by more than what a streaming transfer holds. Collecting before each
 * sample makes the figure show memory the code keeps alive (a body held in memory shows in full).
 */
function gc(): void {
  if (!collectGarbage) {
    v8.setFlagsFromString("--expose-gc");
    collectGarbage = vm.runInNewContext("gc") as () => void;
  }
  collectGarbage();
}

/** Samples resident memory while `work` runs; returns the peak growth over the starting value. */
export async function measureRssGrowth<T>(
  work: () => Promise<T>,
  { intervalMs = 50, collectGarbageFirst = true }: { intervalMs?: number; collectGarbageFirst?: boolean } = {},
): Promise<{ result: T; growthBytes: number; baselineBytes: number; peakBytes: number }> {
  const sample = () => {
    if (collectGarbageFirst) gc();
    return process.memoryUsage().rss;
  };
  const baselineBytes = sample();
  let peakBytes = baselineBytes;
  const timer = setInterval(() => {
    peakBytes = Math.max(peakBytes, sample());
  }, intervalMs);
  try {
    const result = await work();
    peakBytes = Math.max(peakBytes, sample());
    return { result, growthBytes: peakBytes - baselineBytes, baselineBytes, peakBytes };
  } finally {
    clearInterval(timer);
  }
}
