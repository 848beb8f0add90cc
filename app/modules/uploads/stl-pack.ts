import { type ChunkReader, GZIP_CHUNK_BYTES, gzipMember } from "./gzip-members";

/**
 * A lossless packed form of one chunk of a binary STL (ADR 045), the next step after ADR 033's gzip
 * members. A binary STL writes every vertex once per triangle that uses it (about six times in a
 * closed mesh) and interleaves bytes of very different entropy; this form keeps one table of the
 * chunk's unique 12-byte vertices, an index stream where a new vertex costs one byte, and the
 * vertex, normal and attribute words in byte planes, then deflates the whole. Every byte of the
 * chunk is carried exactly: the file's header, a triangle cut by the chunk's start or end, and bytes
 * after the counted triangles go as they are. Unpacking gives back the chunk's bytes or throws.
 *
 * Pure and isomorphic: no Node API. It runs in the page's Web Worker and in Node (the server's
 * unpacking, tests, the benchmark); deflating uses CompressionStream, which both have. The server
 * inflates with its own bounded zlib call (gzip-members.server.ts).
 *
 * A packed member on the wire, integers little-endian:
 *
 *   offset  bytes  field
 *   0       2      magic "SP" (0x53 0x50): never the start of a gzip member (0x1f 0x8b)
 *   2       1      version, PACK_VERSION (1)
 *   3       1      flags, 0
 *   4       4      the whole member's length, header included
 *   8       4      the chunk's length: the file bytes this member stands for
 *   12      4      CRC-32 (IEEE, as gzip's) of those bytes
 *   16      4      the packed body's length before deflate
 *   20      …      the packed body as one zlib stream (RFC 1950, CompressionStream "deflate")
 *
 * The packed body:
 *
 *   u32 H head bytes · u32 T triangles · u32 V vertices · u32 I index bytes · u32 L tail bytes
 *   H bytes   the chunk's bytes before its first whole triangle (the file header, a cut triangle)
 *   12·V      vertex table in 12 byte planes: plane 4c+b is byte b of component c (x, y, z) of every
 *             vertex in order of first use, each component word minus the same word of the vertex
 *             before (mod 2³²)
 *   I bytes   index stream: per corner, LEB128 of (vertices so far − index); 0 is the next new vertex
 *   12·T      normals in 12 byte planes (plane 4c+b: byte b of component c of every triangle)
 *   2·T       attribute words in 2 byte planes (low bytes, then high bytes)
 *   L bytes   the chunk's bytes after its last whole triangle (a cut triangle, bytes after the count)
 */

/** The upload metadata's encoding of an upload whose members may be packed (else gzip members). */
export const PACKED_ENCODING = "stl-pack";
export const PACK_VERSION = 1;
export const PACKED_HEADER_BYTES = 20;
const MAGIC = [0x53, 0x50];
const BODY_FIELDS_BYTES = 20;
const HEADER_BYTES = 84;
const TRIANGLE_BYTES = 50;

/** The largest packed body for a chunk: a chunk whose vertices are all new packs to about 1.3 of it; past this it goes as gzip. */
export const maxPackedBodyBytes = (chunkBytes: number) => Math.ceil(chunkBytes * 1.4) + BODY_FIELDS_BYTES + 64;

/** Where the whole triangles of one chunk lie: `head` bytes before them, `triangles` of them, the rest after. */
export interface ChunkLayout {
  head: number;
  triangles: number;
}

/**
 * The triangles the binary rule gives a file of `fileBytes` whose header counts `count` (bytes 80..83):
 * a count whose triangles the file holds (bytes after them are carried as they are), else null — an
 * ASCII file, a copy cut short, anything else goes as gzip members.
 */
export function binaryTriangles(fileBytes: number, header: Uint8Array): number | null {
  if (header.length < HEADER_BYTES || fileBytes < HEADER_BYTES + TRIANGLE_BYTES) return null;
  const count = new DataView(header.buffer, header.byteOffset, header.byteLength).getUint32(80, true);
  if (count < 1 || HEADER_BYTES + TRIANGLE_BYTES * count > fileBytes) return null;
  return count;
}

/** The layout of the chunk at file bytes [start, start + length) of a file with `count` triangles; null when it holds no whole triangle. */
export function chunkLayout(count: number, start: number, length: number): ChunkLayout | null {
  const trianglesEnd = HEADER_BYTES + TRIANGLE_BYTES * count;
  const first = start <= HEADER_BYTES ? HEADER_BYTES : HEADER_BYTES + Math.ceil((start - HEADER_BYTES) / TRIANGLE_BYTES) * TRIANGLE_BYTES;
  const end = Math.min(start + length, trianglesEnd);
  const triangles = Math.floor((end - first) / TRIANGLE_BYTES);
  if (triangles < 1) return null;
  return { head: first - start, triangles };
}

const CRC_TABLE = (() => {
  const table = new Int32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c;
  }
  return table;
})();

/** CRC-32 as gzip and zlib compute it. */
export function crc32(bytes: Uint8Array): number {
  let crc = -1;
  for (let i = 0; i < bytes.length; i++) crc = CRC_TABLE[(crc ^ bytes[i]!) & 0xff]! ^ (crc >>> 8);
  return (crc ^ -1) >>> 0;
}

function writeLeb128(out: Uint8Array, at: number, value: number): number {
  while (value >= 0x80) {
    out[at++] = (value & 0x7f) | 0x80;
    value >>>= 7;
  }
  out[at++] = value;
  return at;
}

/** Writes the n words of `words` (stride 1) as 4 byte planes at `at`. */
function writePlanes(out: Uint8Array, at: number, words: Uint32Array, planes: number): void {
  const n = words.length;
  for (let b = 0; b < planes; b++) {
    const shift = 8 * b;
    const base = at + b * n;
    for (let i = 0; i < n; i++) out[base + i] = (words[i]! >>> shift) & 0xff;
  }
}

function readPlanes(body: Uint8Array, at: number, n: number, planes: number): Uint32Array {
  const words = new Uint32Array(n);
  for (let b = 0; b < planes; b++) {
    const shift = 8 * b;
    const base = at + b * n;
    for (let i = 0; i < n; i++) words[i] = (words[i]! | (body[base + i]! << shift)) >>> 0;
  }
  return words;
}

/**
 * The packed body of `chunk` with the given layout (the bytes, not yet deflated), or null when it
 * would be longer than maxPackedBodyBytes (then the chunk goes as gzip).
 */
export function packBody(chunk: Uint8Array, layout: ChunkLayout): Uint8Array | null {
  const { head, triangles } = layout;
  const tail = chunk.length - head - TRIANGLE_BYTES * triangles;
  if (head < 0 || triangles < 1 || tail < 0) throw new RangeError("the layout does not fit the chunk");
  const view = new DataView(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  const corners = 3 * triangles;
  let size = 1;
  while (size < corners * 2) size <<= 1;
  const slots = new Int32Array(size).fill(-1);
  const mask = size - 1;
  // Vertex words in order of first use; at most one new vertex per corner.
  const vx = new Uint32Array(corners);
  const vy = new Uint32Array(corners);
  const vz = new Uint32Array(corners);
  const index = new Uint8Array(corners * 5);
  let vertices = 0;
  let indexBytes = 0;
  const normals = [new Uint32Array(triangles), new Uint32Array(triangles), new Uint32Array(triangles)] as const;
  const attributes = new Uint32Array(triangles);
  for (let t = 0; t < triangles; t++) {
    const at = head + TRIANGLE_BYTES * t;
    normals[0][t] = view.getUint32(at, true);
    normals[1][t] = view.getUint32(at + 4, true);
    normals[2][t] = view.getUint32(at + 8, true);
    for (let c = 0; c < 3; c++) {
      const p = at + 12 + 12 * c;
      const x = view.getUint32(p, true);
      const y = view.getUint32(p + 4, true);
      const z = view.getUint32(p + 8, true);
      let slot = (Math.imul(x, 0x9e3779b1) ^ Math.imul(y, 0x85ebca77) ^ Math.imul(z, 0xc2b2ae3d)) >>> 0;
      slot = (slot ^ (slot >>> 15)) & mask;
      let found = -1;
      for (;;) {
        const candidate = slots[slot]!;
        if (candidate < 0) break;
        if (vx[candidate] === x && vy[candidate] === y && vz[candidate] === z) {
          found = candidate;
          break;
        }
        slot = (slot + 1) & mask;
      }
      if (found < 0) {
        slots[slot] = vertices;
        vx[vertices] = x;
        vy[vertices] = y;
        vz[vertices] = z;
        vertices++;
        index[indexBytes++] = 0;
      } else {
        indexBytes = writeLeb128(index, indexBytes, vertices - found);
      }
    }
    attributes[t] = view.getUint16(at + 48, true);
  }
  const bodyBytes = BODY_FIELDS_BYTES + head + 12 * vertices + indexBytes + 14 * triangles + tail;
  if (bodyBytes > maxPackedBodyBytes(chunk.length)) return null;
  const body = new Uint8Array(bodyBytes);
  const fields = new DataView(body.buffer);
  [head, triangles, vertices, indexBytes, tail].forEach((value, i) => fields.setUint32(4 * i, value, true));
  let at = BODY_FIELDS_BYTES;
  body.set(chunk.subarray(0, head), at);
  at += head;
  for (const component of [vx, vy, vz]) {
    const deltas = new Uint32Array(vertices);
    for (let i = vertices - 1; i > 0; i--) deltas[i] = (component[i]! - component[i - 1]!) >>> 0;
    if (vertices > 0) deltas[0] = component[0]!;
    writePlanes(body, at, deltas, 4);
    at += 4 * vertices;
  }
  body.set(index.subarray(0, indexBytes), at);
  at += indexBytes;
  for (const component of normals) {
    writePlanes(body, at, component, 4);
    at += 4 * triangles;
  }
  writePlanes(body, at, attributes, 2);
  at += 2 * triangles;
  body.set(chunk.subarray(chunk.length - tail), at);
  return body;
}

export class PackedChunkError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PackedChunkError";
  }
}

/**
 * The chunk's bytes from its packed body. `chunkBytes` is the length the chunk must have: a body
 * that says otherwise, or that does not read to its last byte exactly, throws PackedChunkError.
 */
export function unpackBody(body: Uint8Array, chunkBytes: number): Uint8Array {
  const fail = (why: string): never => {
    throw new PackedChunkError(`packed chunk does not read: ${why}`);
  };
  if (body.length < BODY_FIELDS_BYTES) fail("shorter than its fields");
  const fields = new DataView(body.buffer, body.byteOffset, body.byteLength);
  const [head, triangles, vertices, indexBytes, tail] = [0, 1, 2, 3, 4].map((i) => fields.getUint32(4 * i, true)) as [number, number, number, number, number];
  if (head + TRIANGLE_BYTES * triangles + tail !== chunkBytes) fail("its parts do not add up to the chunk");
  if (vertices > 3 * triangles || indexBytes > 5 * 3 * triangles) fail("more vertices or index bytes than corners");
  if (BODY_FIELDS_BYTES + head + 12 * vertices + indexBytes + 14 * triangles + tail !== body.length) fail("its parts do not add up to the body");
  const out = new Uint8Array(chunkBytes);
  const view = new DataView(out.buffer);
  let at = BODY_FIELDS_BYTES;
  out.set(body.subarray(at, at + head));
  at += head;
  const components = [0, 1, 2].map(() => {
    const words = readPlanes(body, at, vertices, 4);
    for (let i = 1; i < vertices; i++) words[i] = (words[i]! + words[i - 1]!) >>> 0;
    at += 4 * vertices;
    return words;
  });
  const [vx, vy, vz] = components as [Uint32Array, Uint32Array, Uint32Array];
  let read = at;
  const indexEnd = at + indexBytes;
  at = indexEnd;
  const normals = [0, 1, 2].map(() => {
    const words = readPlanes(body, at, triangles, 4);
    at += 4 * triangles;
    return words;
  }) as [Uint32Array, Uint32Array, Uint32Array];
  const attributes = readPlanes(body, at, triangles, 2);
  at += 2 * triangles;
  let next = 0;
  for (let t = 0; t < triangles; t++) {
    const base = head + TRIANGLE_BYTES * t;
    view.setUint32(base, normals[0][t]!, true);
    view.setUint32(base + 4, normals[1][t]!, true);
    view.setUint32(base + 8, normals[2][t]!, true);
    for (let c = 0; c < 3; c++) {
      let code = 0;
      for (let shift = 0; ; shift += 7) {
        if (read >= indexEnd || shift > 28) fail("the index stream ends inside a code");
        const byte = body[read++]!;
        code += (byte & 0x7f) * 2 ** shift;
        if (byte < 0x80) break;
      }
      let vertex: number;
      if (code === 0) {
        if (next >= vertices) fail("more new vertices than the table holds");
        vertex = next++;
      } else {
        if (code > next) fail("an index before the first vertex");
        vertex = next - code;
      }
      const p = base + 12 + 12 * c;
      view.setUint32(p, vx[vertex]!, true);
      view.setUint32(p + 4, vy[vertex]!, true);
      view.setUint32(p + 8, vz[vertex]!, true);
    }
    view.setUint16(base + 48, attributes[t]!, true);
  }
  if (read !== indexEnd || next !== vertices) fail("the index stream and the vertex table disagree");
  out.set(body.subarray(at, at + tail), chunkBytes - tail);
  return out;
}

/** What a packed member's header says; null when the bytes are not the start of one. */
export interface PackedHeader {
  memberBytes: number;
  chunkBytes: number;
  crc: number;
  bodyBytes: number;
}

export const isPackedMember = (start: Uint8Array) => start.length >= 2 && start[0] === MAGIC[0] && start[1] === MAGIC[1];

export function readPackedHeader(header: Uint8Array): PackedHeader | null {
  if (header.length < PACKED_HEADER_BYTES || !isPackedMember(header) || header[2] !== PACK_VERSION || header[3] !== 0) return null;
  const view = new DataView(header.buffer, header.byteOffset, header.byteLength);
  const memberBytes = view.getUint32(4, true);
  if (memberBytes <= PACKED_HEADER_BYTES) return null;
  return { memberBytes, chunkBytes: view.getUint32(8, true), crc: view.getUint32(12, true), bodyBytes: view.getUint32(16, true) };
}

async function deflate(bytes: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([bytes as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new CompressionStream("deflate"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** The chunk as a packed member, or null when its layout holds no triangles or its body would be too long. */
export async function packedMember(chunk: Uint8Array, layout: ChunkLayout | null): Promise<Uint8Array | null> {
  if (!layout) return null;
  const body = packBody(chunk, layout);
  if (!body) return null;
  const deflated = await deflate(body);
  const member = new Uint8Array(PACKED_HEADER_BYTES + deflated.length);
  const view = new DataView(member.buffer);
  member.set(MAGIC, 0);
  member[2] = PACK_VERSION;
  member[3] = 0;
  view.setUint32(4, member.length, true);
  view.setUint32(8, chunk.length, true);
  view.setUint32(12, crc32(chunk), true);
  view.setUint32(16, body.length, true);
  member.set(deflated, PACKED_HEADER_BYTES);
  return member;
}

/** The smaller of the chunk's gzip member and its packed member: packing is used only where it wins. */
export async function smallerMember(chunk: Uint8Array, layout: ChunkLayout | null): Promise<Uint8Array> {
  const [gzip, packed] = await Promise.all([gzipMember(chunk), packedMember(chunk, layout)]);
  return packed && packed.length < gzip.length ? packed : gzip;
}

/**
 * The `compress` of compressedSource for an upload of encoding PACKED_ENCODING: each chunk of the
 * file as the smaller of its packed and gzip members. Reads the file's first 84 bytes once to
 * learn whether its triangles can be packed at all (an ASCII or cut-short file goes as gzip).
 */
export function packingCompressor(file: ChunkReader, chunkBytes = GZIP_CHUNK_BYTES): (chunk: Uint8Array, index: number) => Promise<Uint8Array> {
  let count: Promise<number | null> | undefined;
  return async (chunk, index) => {
    count ??= file.read(0, Math.min(file.size, HEADER_BYTES)).then((header) => binaryTriangles(file.size, header));
    const triangles = await count;
    return smallerMember(chunk, triangles === null ? null : chunkLayout(triangles, index * chunkBytes, chunk.length));
  };
}
