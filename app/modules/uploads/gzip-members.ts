/**
 * STL files compressed in the browser on the way up (ADR 033). The file is cut into chunks of
 * GZIP_CHUNK_BYTES; each chunk becomes one gzip member, and the members one after another are one
 * valid gzip stream (RFC 1952 §2.2), which is what the resumable upload carries. Each member's
 * header carries an extra field with the member's own length (as BGZF does for its blocks), so the
 * server can take the stream apart member by member and inflate each into at most its chunk; the
 * trailer's CRC-32 and length are the browser's statement of that chunk's content.
 *
 * This module runs in the browser and in Node (both have CompressionStream); the server's
 * inflating side is gzip-members.server.ts.
 */

/** File bytes per member: the resumable upload's chunk (TUS_PART_BYTES), so a drop costs one chunk. */
export const GZIP_CHUNK_BYTES = 5 * 1024 * 1024;

/** The upload metadata's value for a compressed upload. */
export const GZIP_ENCODING = "gzip";

const HEADER_BYTES = 10;
const FEXTRA = 0x04;
/** XLEN (2) + subfield id "ML" (2) + subfield length (2) + member length (4). */
const EXTRA_BYTES = 2 + 2 + 2 + 4;
/** Bytes before the deflate data: a header with our one extra subfield and nothing else. */
export const MEMBER_HEADER_BYTES = HEADER_BYTES + EXTRA_BYTES;
const SUBFIELD_ID = [0x4d, 0x4c]; // "ML": member length

/**
 * The most bytes a member of `chunkBytes` may take: deflate's stored blocks add 5 bytes per 64 KiB
 * at worst, plus the header and the 8-byte trailer. A longer member is not one of ours.
 */
export const maxMemberBytes = (chunkBytes = GZIP_CHUNK_BYTES) => chunkBytes + Math.ceil(chunkBytes / 16_383) * 5 + MEMBER_HEADER_BYTES + 8 + 64;

/** The most bytes a compressed upload of a file of `fileBytes` may send. */
export const maxCompressedBytes = (fileBytes: number, chunkBytes = GZIP_CHUNK_BYTES) =>
  Math.ceil(fileBytes / chunkBytes) * (maxMemberBytes(chunkBytes) - chunkBytes) + fileBytes;

/** Adds the member-length subfield to a gzip member as CompressionStream writes it (no flags set). */
export function withLengthField(member: Uint8Array): Uint8Array {
  if (member.length < HEADER_BYTES + 8 || member[0] !== 0x1f || member[1] !== 0x8b || member[2] !== 8 || member[3] !== 0) {
    throw new Error("unexpected gzip header from CompressionStream");
  }
  const out = new Uint8Array(member.length + EXTRA_BYTES);
  out.set(member.subarray(0, HEADER_BYTES));
  out[3] = FEXTRA;
  const view = new DataView(out.buffer, out.byteOffset, out.byteLength);
  view.setUint16(HEADER_BYTES, 8, true); // XLEN
  out[HEADER_BYTES + 2] = SUBFIELD_ID[0]!;
  out[HEADER_BYTES + 3] = SUBFIELD_ID[1]!;
  view.setUint16(HEADER_BYTES + 4, 4, true); // subfield length
  view.setUint32(HEADER_BYTES + 6, out.length, true);
  out.set(member.subarray(HEADER_BYTES), MEMBER_HEADER_BYTES);
  return out;
}

/**
 * The length of the member whose first MEMBER_HEADER_BYTES bytes are `header`, or null when the
 * header is not one this product writes (another gzip writer, a damaged or forged header).
 */
export function memberLength(header: Uint8Array): number | null {
  if (header.length < MEMBER_HEADER_BYTES) return null;
  if (header[0] !== 0x1f || header[1] !== 0x8b || header[2] !== 8 || header[3] !== FEXTRA) return null;
  const view = new DataView(header.buffer, header.byteOffset, header.byteLength);
  if (view.getUint16(HEADER_BYTES, true) !== 8) return null;
  if (header[HEADER_BYTES + 2] !== SUBFIELD_ID[0] || header[HEADER_BYTES + 3] !== SUBFIELD_ID[1] || view.getUint16(HEADER_BYTES + 4, true) !== 4) return null;
  const length = view.getUint32(HEADER_BYTES + 6, true);
  return length >= MEMBER_HEADER_BYTES + 10 ? length : null;
}

/** One chunk as one gzip member, with the browser's (or Node's) own CompressionStream. */
export async function gzipMember(chunk: Uint8Array): Promise<Uint8Array> {
  const compressed = new Blob([chunk as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new CompressionStream("gzip"));
  return withLengthField(new Uint8Array(await new Response(compressed).arrayBuffer()));
}

export const canCompress = () => typeof CompressionStream === "function" && typeof Response === "function";

/** Something to read chunks of the file from: a File or Blob in the browser, a Blob in Node. */
export interface ChunkReader {
  size: number;
  read(start: number, end: number): Promise<Uint8Array>;
}

export const blobReader = (blob: Blob): ChunkReader => ({
  size: blob.size,
  read: async (start, end) => new Uint8Array(await blob.slice(start, end).arrayBuffer()),
});

/** A file already in memory (the Node test client and the benchmark). */
export const bytesReader = (bytes: Uint8Array): ChunkReader => ({ size: bytes.length, read: async (start, end) => bytes.subarray(start, end) });

/** What tus-js-client sends: bytes with a `size` (its browser and Node HTTP stacks both read it). */
export type SliceValue = Uint8Array & { size: number };

/**
 * The compressed file as a tus-js-client source (its `fileReader` option) for an upload of
 * deferred length: `slice(start, end)` answers the bytes of the member stream between those
 * offsets, compressing members as it reaches them. After a drop tus-js-client asks from the
 * server's offset, and the member holding it is compressed again (the same bytes: CompressionStream
 * is deterministic for the same input), so what is re-sent stays within one chunk. Keeps the
 * members it may still be asked for, at most a few chunks' worth, and makes those of the next
 * request while the current one is sent.
 */
export function compressedSource(file: ChunkReader, options: { chunkBytes?: number; compress?: (chunk: Uint8Array, index: number) => Promise<Uint8Array> } = {}) {
  const chunkBytes = options.chunkBytes ?? GZIP_CHUNK_BYTES;
  const compress = options.compress ?? gzipMember;
  const count = Math.max(1, Math.ceil(file.size / chunkBytes));
  /** Wire offset where member i starts, known for members up to the last one compressed. */
  const starts: number[] = [0];
  const kept = new Map<number, Uint8Array>();

  /** Members being made now (asked for by a slice and by the read-ahead at once: made once). */
  const making = new Map<number, Promise<Uint8Array>>();
  let closed = false;

  async function member(index: number): Promise<Uint8Array> {
    const cached = kept.get(index) ?? making.get(index);
    if (cached) return cached;
    const made = (async () => {
      // Earlier members must be known first: their lengths place this one.
      for (let earlier = starts.length - 1; earlier < index; earlier++) await member(earlier);
      const bytes = await compress(await file.read(index * chunkBytes, Math.min(file.size, (index + 1) * chunkBytes)), index);
      starts[index + 1] = starts[index]! + bytes.length;
      if (!closed) kept.set(index, bytes);
      return bytes;
    })();
    making.set(index, made);
    try {
      return await made;
    } finally {
      making.delete(index);
    }
  }

  /**
   * Makes the members of the next request while this one is on the wire (up to one chunk of wire
   * bytes past `from`), so compressing or packing never waits for the network nor it for them.
   */
  let readingAhead = false;
  function readAhead(from: number): void {
    if (readingAhead || closed) return;
    readingAhead = true;
    void (async () => {
      try {
        for (let index = starts.length - 1; index < count && !closed && starts[index]! - from < chunkBytes; index = starts.length - 1) await member(index);
      } catch {
        // made again when it is asked for
      } finally {
        readingAhead = false;
      }
    })();
  }

  /** The member holding wire offset `offset` (count when it is the end), compressing as needed. */
  async function memberAt(offset: number): Promise<number> {
    let index = 0;
    while (index < count) {
      if (starts[index + 1] === undefined) await member(index);
      if (offset < starts[index + 1]!) return index;
      index++;
    }
    return count;
  }

  const sliceValue = (bytes: Uint8Array): SliceValue => Object.assign(bytes, { size: bytes.length });

  return {
    /** Unknown until the last member is compressed: the upload's length is deferred. */
    size: null as unknown as number,
    async slice(start: number, end: number): Promise<{ value: SliceValue; done: boolean }> {
      const parts: Uint8Array[] = [];
      let at = start;
      let index = await memberAt(start);
      while (index < count && at < end) {
        const bytes = await member(index);
        const from = at - starts[index]!;
        const to = Math.min(bytes.length, end - starts[index]!);
        parts.push(bytes.subarray(from, to));
        at += to - from;
        if (to === bytes.length) index++;
        else break;
      }
      // Members wholly before this slice will not be asked for again (tus-js-client goes forward).
      for (const old of kept.keys()) if (starts[old + 1]! <= start) kept.delete(old);
      readAhead(at);
      const value = new Uint8Array(at - start);
      let offset = 0;
      for (const part of parts) {
        value.set(part, offset);
        offset += part.length;
      }
      return { value: sliceValue(value), done: index >= count };
    },
    close() {
      closed = true;
      kept.clear();
    },
    /** The file bytes that `wireBytes` sent bytes stand for (for progress in the file's own terms). */
    fileBytesAt(wireBytes: number): number {
      let index = 0;
      while (starts[index + 1] !== undefined && wireBytes >= starts[index + 1]!) index++;
      const chunkStart = index * chunkBytes;
      if (index >= count) return file.size;
      const memberBytes = starts[index + 1] === undefined ? null : starts[index + 1]! - starts[index]!;
      const chunk = Math.min(file.size, chunkStart + chunkBytes) - chunkStart;
      const fraction = memberBytes ? (wireBytes - starts[index]!) / memberBytes : 0;
      return Math.min(file.size, chunkStart + Math.floor(chunk * fraction));
    },
  };
}

export type CompressedSource = ReturnType<typeof compressedSource>;
