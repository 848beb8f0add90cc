import { promisify } from "node:util";
import { crc32, gunzip, inflate as zlibInflate } from "node:zlib";
import { GZIP_CHUNK_BYTES, MEMBER_HEADER_BYTES, maxMemberBytes, memberLength } from "./gzip-members";
import { isPackedMember, maxPackedBodyBytes, PACKED_HEADER_BYTES, PackedChunkError, readPackedHeader, unpackBody } from "./stl-pack";

const inflate = promisify(gunzip);
const inflateBody = promisify(zlibInflate);

/**
 * Why a compressed upload cannot be the file the doctor chose:
 * - "damaged": the compressed bytes do not read (a header not ours, broken deflate data, a CRC-32
 *   or length that does not match its member, a stream cut inside a member);
 * - "mismatch": they read, but not into the announced file (a member inflating past its chunk or
 *   short of it, more or fewer bytes in all than the announced size).
 */
export class CompressedUploadError extends Error {
  constructor(readonly reason: "damaged" | "mismatch", message: string) {
    super(message);
    this.name = "CompressedUploadError";
  }
}

/**
 * Restores the file from the member stream of a compressed upload (ADR 033), a member at a time:
 * each is held whole (at most maxMemberBytes) and inflated into at most its own chunk, so memory
 * stays within two chunks whatever the stream claims, and a gzip bomb stops at the first chunk it
 * overfills. Yields the file's bytes in order; throws CompressedUploadError as soon as the stream
 * cannot be the announced file.
 *
 * With `packed` (an upload of encoding stl-pack, ADR 045) a member may also be a packed one: its
 * chunk must be the next chunk, its body is inflated into at most the length its header announces
 * (and never more than maxPackedBodyBytes), unpacked, and its CRC-32 compared with the header's.
 */
export async function* inflateMembers(source: AsyncIterable<Uint8Array>, fileBytes: number, chunkBytes = GZIP_CHUNK_BYTES, options: { packed?: boolean } = {}): AsyncGenerator<Buffer> {
  const limit = maxMemberBytes(chunkBytes);
  let pending: Buffer[] = [];
  let buffered = 0;
  let produced = 0;

  const take = (bytes: number): Buffer => {
    const all = pending.length === 1 ? pending[0]! : Buffer.concat(pending, buffered);
    pending = bytes < all.length ? [all.subarray(bytes)] : [];
    buffered -= bytes;
    return all.subarray(0, bytes);
  };
  const peekHeader = (): Buffer => {
    if (pending[0]!.length < MEMBER_HEADER_BYTES) pending = [Buffer.concat(pending, buffered)];
    return pending[0]!.subarray(0, MEMBER_HEADER_BYTES);
  };

  async function* members(): AsyncGenerator<Buffer> {
    while (buffered >= MEMBER_HEADER_BYTES) {
      const header = peekHeader();
      const packed = options.packed && isPackedMember(header) ? readPackedHeader(header) : null;
      if (options.packed && isPackedMember(header) && !packed) throw new CompressedUploadError("damaged", "a packed member of another version or kind");
      const length = packed ? packed.memberBytes : memberLength(header);
      if (length === null || length > limit) throw new CompressedUploadError("damaged", "not a member of a compressed upload");
      if (buffered < length) return;
      const expected = Math.min(chunkBytes, fileBytes - produced);
      if (expected <= 0) throw new CompressedUploadError("mismatch", "more members than the announced size holds");
      if (packed) {
        const chunk = await unpackMember(take(length), packed, expected);
        produced += chunk.length;
        yield chunk;
        continue;
      }
      let chunk: Buffer;
      try {
        chunk = await inflate(take(length), { maxOutputLength: expected });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ERR_BUFFER_TOO_LARGE") throw new CompressedUploadError("mismatch", "a member inflates past its chunk");
        throw new CompressedUploadError("damaged", `a member does not inflate: ${(error as Error).message}`);
      }
      if (chunk.length !== expected) throw new CompressedUploadError("mismatch", `a member inflates to ${chunk.length} bytes, not ${expected}`);
      produced += chunk.length;
      yield chunk;
    }
  }

  for await (const piece of source) {
    const bytes = Buffer.isBuffer(piece) ? piece : Buffer.from(piece.buffer, piece.byteOffset, piece.byteLength);
    if (bytes.length === 0) continue;
    pending.push(bytes);
    buffered += bytes.length;
    yield* members();
  }
  if (buffered > 0) throw new CompressedUploadError("damaged", "the stream ends inside a member");
  if (produced !== fileBytes) throw new CompressedUploadError("mismatch", `the members hold ${produced} bytes, not the announced ${fileBytes}`);
}

/** One packed member's chunk (ADR 045): exactly `expected` bytes with the member's CRC-32, or a refusal. */
async function unpackMember(member: Buffer, header: NonNullable<ReturnType<typeof readPackedHeader>>, expected: number): Promise<Buffer> {
  if (header.chunkBytes !== expected) throw new CompressedUploadError("mismatch", `a packed member stands for ${header.chunkBytes} bytes, not the ${expected} of its chunk`);
  if (header.bodyBytes > maxPackedBodyBytes(expected)) throw new CompressedUploadError("mismatch", "a packed member's body is longer than any chunk needs");
  let body: Buffer;
  try {
    body = await inflateBody(member.subarray(PACKED_HEADER_BYTES), { maxOutputLength: Math.max(1, header.bodyBytes) });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ERR_BUFFER_TOO_LARGE") throw new CompressedUploadError("mismatch", "a packed member inflates past its announced body");
    throw new CompressedUploadError("damaged", `a packed member does not inflate: ${(error as Error).message}`);
  }
  if (body.length !== header.bodyBytes) throw new CompressedUploadError("damaged", `a packed member's body is ${body.length} bytes, not ${header.bodyBytes}`);
  let chunk: Uint8Array;
  try {
    chunk = unpackBody(body, expected);
  } catch (error) {
    if (error instanceof PackedChunkError) throw new CompressedUploadError("damaged", error.message);
    throw error;
  }
  if (crc32(chunk) !== header.crc) throw new CompressedUploadError("damaged", "a packed member's CRC-32 does not match its chunk");
  return Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
}
