import { bytesReader, compressedSource, GZIP_CHUNK_BYTES } from "~/modules/uploads/gzip-members";
import { packingCompressor } from "~/modules/uploads/stl-pack";

/**
 * The whole member stream of a compressed upload of `file` (ADR 033), read through the page's own
 * source in `step`-byte slices as tus-js-client reads it: what the server receives without a drop.
 * With `packed`, the stream of an stl-pack upload (ADR 045).
 */
export async function memberStream(file: Buffer, step = GZIP_CHUNK_BYTES, chunkBytes = GZIP_CHUNK_BYTES, { packed = false } = {}): Promise<Buffer> {
  const source = compressedSource(bytesReader(file), { chunkBytes, ...(packed ? { compress: packingCompressor(bytesReader(file), chunkBytes) } : {}) });
  const parts: Buffer[] = [];
  for (let offset = 0; ; ) {
    const { value, done } = await source.slice(offset, offset + step);
    parts.push(Buffer.from(value.buffer, value.byteOffset, value.byteLength));
    offset += value.length;
    if (done) return Buffer.concat(parts);
  }
}
