import { promisify } from "node:util";
import { gunzip } from "node:zlib";
import { GZIP_CHUNK_BYTES, MEMBER_HEADER_BYTES, maxMemberBytes, memberLength } from "./gzip-members";

const inflate = promisify(gunzip);

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
 */
export async function* inflateMembers(source: AsyncIterable<Uint8Array>, fileBytes: number, chunkBytes = GZIP_CHUNK_BYTES): AsyncGenerator<Buffer> {
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
      const length = memberLength(peekHeader());
      if (length === null || length > limit) throw new CompressedUploadError("damaged", "not a member of a compressed upload");
      if (buffered < length) return;
      const expected = Math.min(chunkBytes, fileBytes - produced);
      if (expected <= 0) throw new CompressedUploadError("mismatch", "more members than the announced size holds");
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
