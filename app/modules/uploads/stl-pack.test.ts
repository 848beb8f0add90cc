import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import { largeModelBuffer } from "../../../tests/fixtures/stl/large-model.mts";
import { scanLikeStl } from "../../../tests/support/stl-models";
import { bytesReader, compressedSource, GZIP_CHUNK_BYTES, memberLength, MEMBER_HEADER_BYTES } from "./gzip-members";
import { CompressedUploadError, inflateMembers } from "./gzip-members.server";
import {
  binaryTriangles,
  chunkLayout,
  crc32,
  isPackedMember,
  packBody,
  PackedChunkError,
  packedMember,
  packingCompressor,
  PACKED_HEADER_BYTES,
  PACK_VERSION,
  readPackedHeader,
  unpackBody,
} from "./stl-pack";

/**
 * The packed form of a binary STL's chunks (ADR 045) gives back every byte: the corpus of files
 * other software wrote, a 100 MiB generated model, and thousands of random meshes with the floats
 * and words real files hold (NaN payloads, signed zeros, infinities, repeated and degenerate
 * triangles, colour in attribute words, bytes after the counted triangles), cut into chunks anywhere.
 */

const MiB = 1024 * 1024;
const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");
const dir = path.resolve(import.meta.dirname, "../../../tests/fixtures/stl");
const corpus = fs
  .readdirSync(dir)
  .filter((name) => name.endsWith(".stl"))
  .map((name) => ({ name, bytes: new Uint8Array(fs.readFileSync(path.join(dir, name))) }));

/** The member's chunk, read as the server reads it (zlib, bounded), for these tests. */
function unpackMember(member: Uint8Array): Uint8Array {
  const header = readPackedHeader(member)!;
  expect(header.memberBytes).toBe(member.length);
  const body = zlib.inflateSync(member.subarray(PACKED_HEADER_BYTES), { maxOutputLength: header.bodyBytes });
  const chunk = unpackBody(new Uint8Array(body), header.chunkBytes);
  expect(crc32(chunk)).toBe(header.crc);
  return chunk;
}

/** Every chunk of `file` packed (where it holds triangles) and unpacked again, body by body. */
function roundTrip(file: Uint8Array, chunkBytes: number): { packed: number; restored: Uint8Array } {
  const triangles = binaryTriangles(file.length, file.subarray(0, 84));
  const restored = new Uint8Array(file.length);
  let packed = 0;
  for (let start = 0; start < file.length; start += chunkBytes) {
    const chunk = file.subarray(start, Math.min(file.length, start + chunkBytes));
    const layout = triangles === null ? null : chunkLayout(triangles, start, chunk.length);
    const body = layout ? packBody(chunk, layout) : null;
    if (body) packed++;
    restored.set(body ? unpackBody(body, chunk.length) : chunk, start);
  }
  return { packed, restored };
}

/** The whole member stream of a packed upload, as the page sends it. */
async function packedStream(file: Uint8Array, chunkBytes = GZIP_CHUNK_BYTES): Promise<Uint8Array[]> {
  const source = compressedSource(bytesReader(file), { chunkBytes, compress: packingCompressor(bytesReader(file), chunkBytes) });
  const { value } = await source.slice(0, Number.MAX_SAFE_INTEGER);
  const members: Uint8Array[] = [];
  for (let at = 0; at < value.length; ) {
    const length = isPackedMember(value.subarray(at)) ? readPackedHeader(value.subarray(at, at + PACKED_HEADER_BYTES))!.memberBytes : memberLength(value.subarray(at, at + MEMBER_HEADER_BYTES))!;
    members.push(value.subarray(at, at + length));
    at += length;
  }
  return members;
}

const restoreStream = (members: Uint8Array[]) => Buffer.concat(members.map((member) => (isPackedMember(member) ? unpackMember(member) : zlib.gunzipSync(member))));

/** xorshift32: the same seed gives the same mesh. */
function random(seed: number) {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 4294967296;
  };
}

/** Float words real files hold, and some they should not. */
const ODD_WORDS = [0x7fc00000, 0xffc00000, 0x7f800001, 0x7fbfffff, 0xffffffff, 0x80000000, 0x00000000, 0x7f800000, 0xff800000, 0x00000001, 0x807fffff];

/** A random binary STL: vertices drawn from a small pool (so they repeat), odd floats, odd attribute words, maybe extra bytes. */
function randomMesh(seed: number): Uint8Array {
  const next = random(seed);
  const pick = (n: number) => Math.floor(next() * n);
  const triangles = 1 + pick(next() < 0.2 ? 2000 : 60);
  const extra = next() < 0.3 ? pick(120) : 0;
  const file = new Uint8Array(84 + 50 * triangles + extra);
  const view = new DataView(file.buffer);
  for (let i = 0; i < 80; i++) file[i] = next() < 0.5 ? 0x20 : pick(256);
  // Sometimes the count says fewer triangles than the bytes hold (the rest are bytes after them).
  const counted = next() < 0.1 ? 1 + pick(triangles) : triangles;
  view.setUint32(80, counted, true);
  const word = () => {
    const r = next();
    if (r < 0.08) return ODD_WORDS[pick(ODD_WORDS.length)]!;
    if (r < 0.1) return (next() * 4294967296) >>> 0;
    const float = new DataView(new ArrayBuffer(4));
    float.setFloat32(0, (next() - 0.5) * 200);
    return float.getUint32(0);
  };
  const pool = Array.from({ length: 1 + pick(3 * triangles) }, () => [word(), word(), word()]);
  let previous: number[][] = [];
  for (let t = 0; t < triangles; t++) {
    const at = 84 + 50 * t;
    let corners = [0, 1, 2].map(() => pool[pick(pool.length)]!);
    if (next() < 0.05 && previous.length) corners = previous; // a repeated triangle
    if (next() < 0.05) corners[2] = corners[0]!; // a degenerate one
    previous = corners;
    const normal = next() < 0.3 ? [0, 0, 0] : [word(), word(), word()];
    normal.forEach((value, i) => view.setUint32(at + 4 * i, value, true));
    corners.forEach((corner, c) => corner.forEach((value, i) => view.setUint32(at + 12 + 12 * c + 4 * i, value, true)));
    view.setUint16(at + 48, next() < 0.7 ? 0 : pick(65536), true);
  }
  for (let i = 84 + 50 * triangles; i < file.length; i++) file[i] = pick(256);
  return file;
}

describe("packed STL chunks (ADR 045): every byte comes back", () => {
  it("for every file of the corpus, whole and cut into chunks of any size", () => {
    let packedChunks = 0;
    for (const { name, bytes } of corpus) {
      for (const chunkBytes of [bytes.length || 1, 50, 97, 1000, 4096, 65_536]) {
        const { packed, restored } = roundTrip(bytes, chunkBytes);
        packedChunks += packed;
        expect(sha256(restored), `${name} in chunks of ${chunkBytes}`).toBe(sha256(bytes));
      }
    }
    // The binary files' triangles were packed, not all passed by as they are.
    expect(packedChunks).toBeGreaterThan(1000);
  }, 180_000);

  it("for every file of the corpus through the page's member stream (packed or gzip, whichever is smaller)", async () => {
    for (const { name, bytes } of corpus) {
      if (bytes.length === 0) continue;
      for (const chunkBytes of [997, GZIP_CHUNK_BYTES]) {
        const members = await packedStream(bytes, chunkBytes);
        expect(sha256(restoreStream(members)), name).toBe(sha256(bytes));
      }
    }
  });

  it("packs the binary files where packing wins, and leaves the ASCII ones to gzip", async () => {
    const kinds = async (name: string) => (await packedStream(corpus.find((file) => file.name === name)!.bytes)).map((member) => (isPackedMember(member) ? "packed" : "gzip"));
    expect(await kinds("stl-models_gearwheel.bin.stl")).toEqual(["packed"]);
    expect(await kinds("derived_longer.trailing-crlf.bin.stl")).toEqual(["packed"]);
    expect(await kinds("stl-models_gearwheel.ascii.stl")).toEqual(["gzip"]);
    // A copy cut short does not parse exactly: gzip.
    expect(await kinds("derived_gearwheel.cut-short.bin.stl")).toEqual(["gzip"]);
  });

  it("for a scan-shaped model in 5 MiB chunks, at well under half of gzip's size", async () => {
    const scan = scanLikeStl(360, 356, 7); // 12.8 MB: three chunks
    const members = await packedStream(scan);
    expect(members.map((member) => isPackedMember(member))).toEqual([true, true, true]);
    expect(sha256(restoreStream(members))).toBe(sha256(scan));
    const total = members.reduce((sum, member) => sum + member.length, 0);
    expect(total).toBeLessThan(scan.length * 0.25);
  });

  it("for the 100 MiB generated model (the gear wheel repeated), chunk by chunk", () => {
    const large = largeModelBuffer(860);
    expect(large.length).toBeGreaterThan(100 * MiB);
    const { packed, restored } = roundTrip(large, GZIP_CHUNK_BYTES);
    expect(packed).toBe(Math.ceil(large.length / GZIP_CHUNK_BYTES));
    expect(sha256(restored)).toBe(sha256(large));
  }, 180_000);

  it("for 3,000 random meshes with odd floats, odd attribute words and extra bytes, cut anywhere", () => {
    let packedChunks = 0;
    for (let seed = 1; seed <= 3000; seed++) {
      const mesh = randomMesh(seed);
      const next = random(seed * 7919);
      // Whole, or cut anywhere: a boundary inside the header, inside a triangle, inside the bytes after them.
      const chunkBytes = next() < 0.3 ? mesh.length : 13 + Math.floor(next() * mesh.length);
      const { packed, restored } = roundTrip(mesh, chunkBytes);
      packedChunks += packed;
      if (!Buffer.from(restored).equals(mesh)) expect.fail(`mesh ${seed} in chunks of ${chunkBytes} bytes does not come back`);
    }
    expect(packedChunks).toBeGreaterThan(3000);
  }, 180_000);

  it("for random meshes through whole members: deflated, with their length and CRC-32", async () => {
    for (let seed = 5000; seed < 5200; seed++) {
      const mesh = randomMesh(seed);
      const triangles = binaryTriangles(mesh.length, mesh)!;
      const member = await packedMember(mesh, chunkLayout(triangles, 0, mesh.length));
      if (!member) continue;
      expect(member[2]).toBe(PACK_VERSION);
      expect(Buffer.from(unpackMember(member)).equals(mesh)).toBe(true);
    }
  });
});

describe("packed STL chunks: what does not read is refused", () => {
  const mesh = scanLikeStl(40, 30, 9);
  const layout = chunkLayout(binaryTriangles(mesh.length, mesh)!, 0, mesh.length)!;
  const body = packBody(mesh, layout)!;

  it("a body for a chunk of another length, cut short or longer than its parts", () => {
    expect(() => unpackBody(body, mesh.length + 1)).toThrow(PackedChunkError);
    expect(() => unpackBody(body.subarray(0, body.length - 1), mesh.length)).toThrow(PackedChunkError);
    expect(() => unpackBody(Buffer.concat([body, Buffer.from([0])]), mesh.length)).toThrow(PackedChunkError);
    expect(() => unpackBody(body.subarray(0, 10), mesh.length)).toThrow(PackedChunkError);
  });

  it("an index stream that points before the first vertex or past the table", () => {
    const fields = new DataView(body.buffer, body.byteOffset);
    const indexAt = 20 + layout.head + 12 * fields.getUint32(8, true);
    const pointsBefore = Buffer.from(body);
    pointsBefore[indexAt + 1] = 0x05; // the second corner: five vertices before the first one
    expect(() => unpackBody(pointsBefore, mesh.length)).toThrow(PackedChunkError);
    const fewerVertices = Buffer.from(body);
    new DataView(fewerVertices.buffer, fewerVertices.byteOffset).setUint32(8, fields.getUint32(8, true) - 1, true);
    expect(() => unpackBody(fewerVertices, mesh.length)).toThrow(PackedChunkError);
  });

  it("a flipped byte inside the planes gives other bytes, which the chunk's CRC-32 tells apart", () => {
    const flipped = Buffer.from(body);
    flipped[body.length - 100] ^= 0x10;
    expect(crc32(unpackBody(flipped, mesh.length))).not.toBe(crc32(mesh));
    expect(crc32(new Uint8Array(zlib.gunzipSync(zlib.gzipSync(mesh))))).toBe(zlib.crc32(mesh));
  });

  it("a header that is not ours: another magic, another version, flags set", () => {
    const good = new Uint8Array(PACKED_HEADER_BYTES);
    good.set([0x53, 0x50, PACK_VERSION, 0, 100, 0, 0, 0]);
    expect(readPackedHeader(good)).toMatchObject({ memberBytes: 100 });
    for (const [at, value] of [
      [0, 0x1f],
      [2, 2],
      [3, 1],
    ] as const) {
      const bad = Uint8Array.from(good);
      bad[at] = value;
      expect(readPackedHeader(bad)).toBeNull();
    }
  });
});

describe("packed uploads: the server restores the file or refuses it (ADR 045)", () => {
  const chunk = 1 * MiB;
  const scan = scanLikeStl(200, 110, 3); // 2.2 MB: three chunks of 1 MiB

  async function restored(stream: Uint8Array, fileBytes: number, packed = true): Promise<{ reason: string; bytes: Buffer }> {
    const out: Buffer[] = [];
    try {
      async function* pieces() {
        for (let at = 0; at < stream.length; at += 65_536) yield stream.subarray(at, at + 65_536);
      }
      for await (const piece of inflateMembers(pieces(), fileBytes, chunk, { packed })) out.push(piece);
    } catch (error) {
      if (error instanceof CompressedUploadError) return { reason: error.reason, bytes: Buffer.concat(out) };
      throw error;
    }
    return { reason: "accepted", bytes: Buffer.concat(out) };
  }
  const stream = async () => Buffer.concat(await packedStream(scan, chunk));

  it("restores a packed member stream exactly, and refuses it in an upload announced as gzip", async () => {
    const wire = await stream();
    expect(isPackedMember(wire)).toBe(true);
    const back = await restored(wire, scan.length);
    expect(back.reason).toBe("accepted");
    expect(sha256(back.bytes)).toBe(sha256(scan));
    expect((await restored(wire, scan.length, false)).reason).toBe("damaged");
  });

  it("a member whose CRC-32 or body does not match its chunk as damaged", async () => {
    const wire = await stream();
    const badCrc = Buffer.from(wire);
    badCrc[12] ^= 0x01;
    expect(await restored(badCrc, scan.length)).toEqual({ reason: "damaged", bytes: Buffer.alloc(0) });
    const badData = Buffer.from(wire);
    badData[PACKED_HEADER_BYTES + 2000] ^= 0x55;
    expect((await restored(badData, scan.length)).reason).toBe("damaged");
    const otherVersion = Buffer.from(wire);
    otherVersion[2] = PACK_VERSION + 1;
    expect((await restored(otherVersion, scan.length)).reason).toBe("damaged");
  });

  it("a member standing for another length than its chunk, or too few bytes in all, as a mismatch", async () => {
    const wire = await stream();
    const longer = Buffer.from(wire);
    longer.writeUInt32LE(chunk + 50, 8);
    expect((await restored(longer, scan.length)).reason).toBe("mismatch");
    expect((await restored(wire, scan.length + 1)).reason).toBe("mismatch");
  });

  it("a body that inflates past its announced length (a bomb) as a mismatch, without inflating it whole", async () => {
    // 256 MiB of zeros deflated, announced as a 100-byte body of a 1 MiB chunk.
    const deflate = zlib.createDeflate({ level: 9 });
    const parts: Buffer[] = [];
    deflate.on("data", (part: Buffer) => parts.push(part));
    const zeros = Buffer.alloc(MiB);
    for (let i = 0; i < 256; i++) deflate.write(zeros);
    await new Promise((resolve) => deflate.end(resolve));
    const body = Buffer.concat(parts);
    const member = Buffer.alloc(PACKED_HEADER_BYTES + body.length);
    member.set([0x53, 0x50, PACK_VERSION, 0]);
    member.writeUInt32LE(member.length, 4);
    member.writeUInt32LE(chunk, 8);
    member.writeUInt32LE(0, 12);
    member.writeUInt32LE(100, 16);
    body.copy(member, PACKED_HEADER_BYTES);
    expect(member.length).toBeLessThan(MiB);
    const before = process.memoryUsage().arrayBuffers;
    expect(await restored(member, 100 * MiB)).toEqual({ reason: "mismatch", bytes: Buffer.alloc(0) });
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(32 * MiB);
    // A body announced longer than any chunk needs is refused before it is inflated.
    member.writeUInt32LE(2 * chunk, 16);
    expect((await restored(member, 100 * MiB)).reason).toBe("mismatch");
  });
});
