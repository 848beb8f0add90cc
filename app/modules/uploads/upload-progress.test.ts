import { describe, expect, it } from "vitest";
import { scanLikeStl } from "../../../tests/support/stl-models";
import { bytesReader, compressedSource, gzipMember } from "./gzip-members";
import { agree, CHUNK_TARGET_MS, FIRST_CHUNK_BYTES, MAX_CHUNK_BYTES, MIN_CHUNK_BYTES, nextChunkBytes, percentOf, rateOf, uploadProgress, WINDOW_MS } from "./upload-progress";

const MiB = 1024 * 1024;

/** Acknowledgements of `chunk` bytes every `everyMs`, from 0 to `total`: what a steady link gives. */
function steady(total: number, chunk: number, everyMs: number) {
  const progress = uploadProgress({ fileBytes: total });
  const seen = [];
  for (let offset = 0, at = 1_000; ; offset = Math.min(total, offset + chunk), at += everyMs) {
    seen.push({ at, offset, ...progress.acknowledged(offset, at) });
    if (offset === total) return seen;
  }
}

describe("upload progress: the percentage is what the server holds", () => {
  it("is the whole percent of the file's bytes, 100 only when all of it is held", () => {
    expect(percentOf(0, 10_000_000)).toBe(0);
    // The case once reported: 6.72 MB of 9.54 MB is 70 %, not 35 %.
    expect(percentOf(6_720_000, 9_540_000)).toBe(70);
    expect(percentOf(9_539_999, 9_540_000)).toBe(99);
    expect(percentOf(9_540_000, 9_540_000)).toBe(100);
    expect(percentOf(5, 0)).toBe(0);
  });

  it("counts a plain upload's offsets as the file's bytes, as they are", () => {
    const progress = uploadProgress({ fileBytes: 12 * MiB });
    expect(progress.acknowledged(5 * MiB, 1_000)).toEqual({ sent: 5 * MiB, wire: 5 * MiB });
    expect(progress.acknowledged(12 * MiB, 2_000)).toMatchObject({ sent: 12 * MiB, wire: 12 * MiB });
  });

  it("maps a compressed upload's offsets back to the file's own bytes, member by member", async () => {
    // A scan-shaped model in members of 256 KiB of file each, sent in tus chunks of 100,000 bytes.
    const file = scanLikeStl(120, 110, 3);
    const chunkBytes = 256 * 1024;
    const source = compressedSource(bytesReader(file), { chunkBytes });
    const progress = uploadProgress({ fileBytes: file.length, fileBytesAt: (wire) => source.fileBytesAt(wire) });
    const seen: Array<{ wire: number; sent: number }> = [];
    for (let offset = 0, done = false; !done; ) {
      const slice = await source.slice(offset, offset + 100_000);
      offset += slice.value.length;
      done = slice.done;
      seen.push(progress.acknowledged(offset, seen.length * 1000));
    }
    expect(seen.at(-1)!.wire).toBeLessThan(file.length * 0.8);
    // The end of the stream is the whole file; every offset stands for more file bytes than the one before.
    expect(seen.at(-1)!.sent).toBe(file.length);
    for (let i = 1; i < seen.length; i++) expect(seen[i]!.sent).toBeGreaterThan(seen[i - 1]!.sent);

    // Where each member starts on the wire (each chunk compressed alone gives the same member).
    const starts = [0];
    for (let at = 0; at < file.length; at += chunkBytes) starts.push(starts.at(-1)! + (await gzipMember(file.subarray(at, at + chunkBytes))).length);
    expect(starts.at(-1)).toBe(seen.at(-1)!.wire);
    expect(starts.length).toBeGreaterThan(3);
    const mapped = uploadProgress({ fileBytes: file.length, fileBytesAt: (wire) => source.fileBytesAt(wire) });
    for (let member = 0; member < starts.length - 1; member++) {
      // A member's end on the wire: exactly the chunks before it; its middle: half of its chunk.
      const chunk = Math.min(file.length, (member + 1) * chunkBytes) - member * chunkBytes;
      const middle = mapped.acknowledged(Math.floor((starts[member]! + starts[member + 1]!) / 2), member);
      expect(Math.abs(middle.sent - (member * chunkBytes + chunk / 2))).toBeLessThan(chunk / 100);
      expect(mapped.acknowledged(starts[member + 1]!, member + 0.5).sent).toBe(Math.min(file.length, (member + 1) * chunkBytes));
    }
  });

  it("never counts more than the file, nor less than nothing", () => {
    const progress = uploadProgress({ fileBytes: 1000, fileBytesAt: (wire) => wire * 3 - 10 });
    expect(progress.acknowledged(0, 0).sent).toBe(0);
    expect(progress.acknowledged(500, 10).sent).toBe(1000);
  });
});

describe("upload progress: the time left", () => {
  it("measures the rate over the last window, from the last acknowledgement before it", () => {
    const samples = [
      { at: 0, bytes: 0 },
      { at: 28_000, bytes: 28_000_000 }, // 1 MB/s at first…
      { at: 40_000, bytes: 30_400_000 },
      { at: 50_000, bytes: 32_400_000 }, // …then 200 kB/s
    ];
    // The window is 30–50 s; it is measured from 28 s, the acknowledgement just before it.
    expect(rateOf(samples)).toBeCloseTo(4_400_000 / 22_000);
    // A window with one acknowledgement in it spans the interval since the one before.
    expect(rateOf(samples.slice(0, 2))).toBeCloseTo(1_000);
    expect(rateOf(samples.slice(0, 1))).toBeNull();
    expect(rateOf([{ at: 5, bytes: 0 }, { at: 5, bytes: 10 }])).toBeNull();
  });

  it("is told on a steady link once three acknowledgements agree, and is right", () => {
    // 12 MiB in 1 MiB chunks at 1 MiB per 2 s: 24 s in all.
    const seen = steady(12 * MiB, MiB, 2_000);
    const end = seen.at(-1)!.at;
    expect(seen[0]!.finishAt).toBeUndefined();
    expect(seen[1]!.finishAt).toBeUndefined();
    const told = seen.filter((point) => point.finishAt !== undefined);
    expect(told.length).toBeGreaterThan(8);
    for (const point of told) expect(Math.abs(point.finishAt! - end)).toBeLessThan(100);
  });

  it("is told with chunks slower than the window (one 5 MiB chunk every 21 s on 2 Mbit/s)", () => {
    const seen = steady(30 * MiB, 5 * MiB, 21_000);
    expect(seen[2]!.finishAt).toBeCloseTo(seen.at(-1)!.at, -2);
  });

  it("follows a link that slowed down, from the recent rate, not the average since the start", () => {
    const progress = uploadProgress({ fileBytes: 100 * MiB });
    let at = 0;
    let offset = 0;
    // 40 s at 1 MiB/s, then 500 kiB/s.
    for (; at <= 40_000; at += 2_000, offset += 2 * MiB) progress.acknowledged(offset, at);
    let last = progress.acknowledged(offset, at);
    for (let step = 0; step < 20; step++) {
      at += 2_000;
      offset += MiB;
      last = progress.acknowledged(offset, at);
    }
    const left = (100 * MiB - offset) / (MiB / 2_000);
    expect(last.finishAt).toBeDefined();
    expect(Math.abs(last.finishAt! - (at + left))).toBeLessThan(1_000);
    // The whole-upload average would have said much less.
    expect(at + (100 * MiB - offset) / (offset / at)).toBeLessThan(at + left * 0.8);
  });

  it("is hidden while consecutive estimates disagree (a link that stalls and bursts)", () => {
    const progress = uploadProgress({ fileBytes: 100 * MiB });
    const pattern = [
      [0, 0],
      [1_000, 5 * MiB],
      [15_000, 6 * MiB],
      [16_000, 15 * MiB],
      [40_000, 16 * MiB],
    ] as const;
    const seen = pattern.map(([at, offset]) => progress.acknowledged(offset, at));
    for (const point of seen) expect(point.finishAt).toBeUndefined();
  });

  it("starts afresh when the upload goes back to an earlier offset", () => {
    const progress = uploadProgress({ fileBytes: 50 * MiB });
    for (let step = 0; step < 5; step++) progress.acknowledged(step * 2 * MiB, step * 2_000);
    expect(progress.acknowledged(10 * MiB, 10_000).finishAt).toBeDefined();
    // Started again from 4 MiB (a new upload of the same file): two acknowledgements are not enough.
    expect(progress.acknowledged(4 * MiB, 12_000).finishAt).toBeUndefined();
    expect(progress.acknowledged(6 * MiB, 14_000).finishAt).toBeUndefined();
    expect(progress.acknowledged(8 * MiB, 16_000).finishAt).toBeDefined();
  });

  it("says nothing once the file is held whole", () => {
    const seen = steady(4 * MiB, MiB, 1_000);
    expect(seen.at(-1)!.finishAt).toBeUndefined();
  });

  it("agrees within the margin of the time left or two seconds", () => {
    expect(agree(100_000, 110_000, 60_000)).toBe(true); // 10 s apart of 50 s left
    expect(agree(100_000, 120_000, 60_000)).toBe(false); // 20 s apart of 60 s left
    expect(agree(10_000, 11_900, 9_000)).toBe(true); // a few seconds say the same
    expect(WINDOW_MS).toBeGreaterThanOrEqual(10_000);
  });
});

describe("upload progress: chunks sized to the link, the bar within the chunk in flight (ADR 096)", () => {
  it("aims each chunk at about two seconds of the link, growing at most twice a chunk, within 256 KiB and 5 MiB", () => {
    // 1.5 Mbit/s with 150 ms latency: 512 KiB took about 3 s.
    const slow = nextChunkBytes(FIRST_CHUNK_BYTES, 2_950, FIRST_CHUNK_BYTES);
    expect(slow).toBeGreaterThan(MIN_CHUNK_BYTES);
    expect(slow).toBeLessThan(FIRST_CHUNK_BYTES);
    expect(Math.abs((slow / FIRST_CHUNK_BYTES) * 2_950 - CHUNK_TARGET_MS)).toBeLessThan(50);
    // A very slow line: never below the smallest chunk.
    expect(nextChunkBytes(MIN_CHUNK_BYTES, 60_000, MIN_CHUNK_BYTES)).toBe(MIN_CHUNK_BYTES);
    // A fast line took the first chunk in 20 ms: twice it, then twice again, up to S3's smallest part.
    let chunk = FIRST_CHUNK_BYTES;
    const sizes = [];
    for (let i = 0; i < 5; i++) sizes.push((chunk = nextChunkBytes(chunk, 20, chunk)));
    expect(sizes).toEqual([2 * FIRST_CHUNK_BYTES, 4 * FIRST_CHUNK_BYTES, 8 * FIRST_CHUNK_BYTES, MAX_CHUNK_BYTES, MAX_CHUNK_BYTES]);
    // Nothing measured (an answer with no new bytes): the size stays.
    expect(nextChunkBytes(0, 1_000, 3 * MiB)).toBe(3 * MiB);
  });

  it("shows the bytes on the wire within the chunk, never less than the server holds, and no time left of its own", () => {
    const progress = uploadProgress({ fileBytes: 3 * MiB });
    expect(progress.sending(100_000)).toEqual({ sent: 100_000, wire: 100_000 });
    progress.acknowledged(512 * 1024, 3_000);
    // The next chunk's first bytes: what the server holds at least.
    expect(progress.sending(512 * 1024 + 40_000)).toEqual({ sent: 512 * 1024 + 40_000, wire: 512 * 1024 + 40_000 });
    // Past the file's end (a deferred length): the file's bytes at most.
    expect(progress.sending(4 * MiB).sent).toBe(3 * MiB);
    for (let at = 4_000, offset = MiB; offset < 3 * MiB; at += 1_000, offset += 256 * 1024) progress.acknowledged(offset, at);
    expect(progress.sending(3 * MiB - 10).finishAt).toBeUndefined();
  });

  it("maps the wire bytes of a compressed chunk in flight back to the file's bytes", async () => {
    const file = scanLikeStl(120, 110, 3);
    const source = compressedSource(bytesReader(file), { chunkBytes: 256 * 1024 });
    const progress = uploadProgress({ fileBytes: file.length, fileBytesAt: (wire) => source.fileBytesAt(wire) });
    const slice = await source.slice(0, 300_000);
    const halfway = progress.sending(slice.value.length / 2);
    const whole = progress.sending(slice.value.length);
    expect(halfway.sent).toBeGreaterThan(0);
    expect(whole.sent).toBeGreaterThan(halfway.sent);
    // Compressed, the file's bytes outrun the wire's.
    expect(whole.sent).toBeGreaterThan(whole.wire);
  });
});
