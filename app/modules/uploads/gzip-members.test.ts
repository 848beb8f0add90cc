import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import zlib from "node:zlib";
import { describe, expect, it, vi } from "vitest";
import { memberStream as wholeStream } from "../../../tests/support/member-stream";
import { scanLikeStl } from "../../../tests/support/stl-models";
import { bytesReader, compressedSource, GZIP_CHUNK_BYTES, gzipMember, maxCompressedBytes, memberLength, MEMBER_HEADER_BYTES, withLengthField } from "./gzip-members";
import { CompressedUploadError, inflateMembers } from "./gzip-members.server";

const MiB = 1024 * 1024;
const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

async function restore(stream: Buffer, fileBytes: number, piece = 64 * 1024, chunkBytes = GZIP_CHUNK_BYTES): Promise<Buffer> {
  async function* pieces() {
    for (let at = 0; at < stream.length; at += piece) yield stream.subarray(at, at + piece);
  }
  const out: Buffer[] = [];
  for await (const chunk of inflateMembers(pieces(), fileBytes, chunkBytes)) out.push(chunk);
  return Buffer.concat(out);
}

async function refusal(stream: Buffer, fileBytes: number, chunkBytes = GZIP_CHUNK_BYTES): Promise<{ reason: string; yielded: number }> {
  let yielded = 0;
  try {
    async function* once() {
      yield stream;
    }
    for await (const chunk of inflateMembers(once(), fileBytes, chunkBytes)) yielded += chunk.length;
  } catch (error) {
    if (error instanceof CompressedUploadError) return { reason: error.reason, yielded };
    throw error;
  }
  return { reason: "accepted", yielded };
}

// A scan-like model of 12.8 MB: three members, the last one short.
const scan = scanLikeStl(360, 356, 7);

describe("compressed uploads: the member stream (ADR 033)", () => {
  it("is one gzip stream that Debian's gzip and Node's zlib read back to the file, byte for byte", async () => {
    const stream = await wholeStream(scan);
    expect(stream.length).toBeLessThan(scan.length * 0.6);
    expect(sha256(zlib.gunzipSync(stream))).toBe(sha256(scan));
    const fromGzip = execFileSync("gzip", ["-dc"], { input: stream, maxBuffer: 64 * MiB });
    expect(sha256(fromGzip)).toBe(sha256(scan));
    // One member per 5 MiB chunk, each with its own length in its header.
    let members = 0;
    for (let at = 0; at < stream.length; members++) at += memberLength(stream.subarray(at, at + MEMBER_HEADER_BYTES))!;
    expect(members).toBe(Math.ceil(scan.length / GZIP_CHUNK_BYTES));
  });

  it("answers any offset with the same bytes, in this source or a fresh one (a drop, a reload)", async () => {
    const stream = await wholeStream(scan, 3 * MiB + 17);
    const source = compressedSource(bytesReader(scan));
    await source.slice(0, 5 * MiB);
    // tus-js-client resumes from the server's offset, inside a member.
    const resumeAt = 4 * MiB + 123;
    const again = await source.slice(resumeAt, resumeAt + 5 * MiB);
    expect(Buffer.from(again.value).equals(stream.subarray(resumeAt, resumeAt + 5 * MiB))).toBe(true);
    const fresh = compressedSource(bytesReader(scan));
    const late = await fresh.slice(stream.length - 1000, stream.length + 5 * MiB);
    expect(late.done).toBe(true);
    expect(Buffer.from(late.value).equals(stream.subarray(stream.length - 1000))).toBe(true);
  });

  it("makes the members of the next request while the current one is sent, each once", async () => {
    const made: number[] = [];
    const source = compressedSource(bytesReader(scan), {
      compress: async (chunk, index) => {
        made.push(index);
        return gzipMember(chunk);
      },
    });
    await source.slice(0, 1024);
    // Nobody asked for members 1 and 2 yet: they are made ahead, up to a chunk of wire bytes.
    await vi.waitFor(() => expect(made).toEqual([0, 1, 2]), { timeout: 30_000 });
    const stream = await wholeStream(scan);
    const rest = await source.slice(1024, stream.length);
    expect(Buffer.from(rest.value).equals(stream.subarray(1024))).toBe(true);
    expect(made).toEqual([0, 1, 2]);
  });

  it("counts progress in the file's own bytes", async () => {
    const stream = await wholeStream(scan);
    const source = compressedSource(bytesReader(scan));
    await source.slice(0, stream.length);
    const points = [0, 1, stream.length / 3, stream.length / 2, stream.length - 1, stream.length].map((wire) => source.fileBytesAt(Math.floor(wire)));
    expect(points[0]).toBe(0);
    expect(points.at(-1)).toBe(scan.length);
    for (let i = 1; i < points.length; i++) expect(points[i]!).toBeGreaterThanOrEqual(points[i - 1]!);
    // Half the wire is about half the file (within one chunk).
    expect(Math.abs(points[3]! - scan.length / 2)).toBeLessThan(GZIP_CHUNK_BYTES);
  });

  it("is restored by the server exactly, whatever pieces the stream arrives in", async () => {
    const stream = await wholeStream(scan);
    for (const piece of [1000, 64 * 1024, 5 * MiB + 3]) expect(sha256(await restore(stream, scan.length, piece))).toBe(sha256(scan));
    const tiny = Buffer.from("solid x\nendsolid x\n");
    expect((await restore(await wholeStream(tiny), tiny.length)).equals(tiny)).toBe(true);
  });
});

describe("compressed uploads: what the server refuses", () => {
  const chunk = 1 * MiB;
  const file = scanLikeStl(200, 110, 3); // 2.2 MB: three members of 1 MiB chunks

  it("a corrupt member (a flipped byte in its data, or in its CRC-32) as damaged", async () => {
    const stream = await wholeStream(file, chunk, chunk);
    const inData = Buffer.from(stream);
    inData[MEMBER_HEADER_BYTES + 5000] ^= 0x55;
    expect((await refusal(inData, file.length, chunk)).reason).toBe("damaged");
    const first = memberLength(stream)!;
    const inCrc = Buffer.from(stream);
    inCrc[first - 8] ^= 0x01;
    expect((await refusal(inCrc, file.length, chunk)).reason).toBe("damaged");
  });

  it("a stream cut inside a member, a gzip stream not written by the upload, and a member longer than any of ours as damaged", async () => {
    const stream = await wholeStream(file, chunk, chunk);
    expect((await refusal(stream.subarray(0, stream.length - 10), file.length, chunk)).reason).toBe("damaged");
    expect((await refusal(zlib.gzipSync(file), file.length, chunk)).reason).toBe("damaged");
    const forged = Buffer.from(stream);
    forged.writeUInt32LE(200 * MiB, 16);
    expect((await refusal(forged, file.length, chunk)).reason).toBe("damaged");
  });

  it("a member that inflates past its chunk (a gzip bomb included) as a mismatch, without inflating it whole", async () => {
    const bigger = withLengthField(new Uint8Array(zlib.gzipSync(file.subarray(0, chunk + 1))));
    expect(await refusal(Buffer.from(bigger), file.length, chunk)).toEqual({ reason: "mismatch", yielded: 0 });
    // 256 MiB of zeros in 256 KB: refused after one chunk's worth, not after 256 MiB.
    const gzip = zlib.createGzip({ level: 9 });
    const parts: Buffer[] = [];
    gzip.on("data", (part: Buffer) => parts.push(part));
    const zeros = Buffer.alloc(MiB);
    for (let i = 0; i < 256; i++) gzip.write(zeros);
    await new Promise((resolve) => gzip.end(resolve));
    const bomb = Buffer.from(withLengthField(new Uint8Array(Buffer.concat(parts))));
    expect(bomb.length).toBeLessThan(MiB);
    const before = process.memoryUsage().arrayBuffers;
    expect(await refusal(bomb, 100 * MiB)).toEqual({ reason: "mismatch", yielded: 0 });
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(32 * MiB);
  });

  it("a file of another size than announced as a mismatch: a member short of its chunk, too few or too many members", async () => {
    const stream = await wholeStream(file, chunk, chunk);
    expect((await refusal(stream, file.length + 1, chunk)).reason).toBe("mismatch");
    expect((await refusal(stream, file.length - 1, chunk)).reason).toBe("mismatch");
    expect((await refusal(stream, 2 * chunk, chunk)).reason).toBe("mismatch");
    const short = Buffer.concat([Buffer.from(await gzipMember(file.subarray(0, chunk - 1))), stream]);
    expect((await refusal(short, file.length + chunk - 1, chunk)).reason).toBe("mismatch");
  });

  it("allows a compressed upload no more than a file that does not compress would take", () => {
    expect(maxCompressedBytes(100 * MiB)).toBeGreaterThan(100 * MiB);
    expect(maxCompressedBytes(100 * MiB)).toBeLessThan(100 * MiB + 64 * 1024);
  });
});
