/**
 * Generated STL models for the uploads tests (test support only; the app does not import this).
 */

/** A binary STL with `triangles` facets; `header` (padded with spaces to 80 bytes) defaults to a "solid" one. */
export function binaryStl(triangles: number, header = "solid exported by a CAD program that puts solid in the header"): Uint8Array {
  const bytes = new Uint8Array(84 + 50 * triangles);
  const view = new DataView(bytes.buffer);
  const head = new TextEncoder().encode(header.padEnd(80, " ").slice(0, 80));
  bytes.set(head, 0);
  view.setUint32(80, triangles, true);
  for (let index = 0; index < triangles; index++) writeTriangle(view, 84 + 50 * index, index);
  return bytes;
}

function writeTriangle(view: DataView, offset: number, index: number): void {
  const values = [0, 0, 1, index, 0, 0, index + 1, 0, 0, index, 1, 0];
  values.forEach((value, position) => view.setFloat32(offset + position * 4, value, true));
  view.setUint16(offset + 48, 0, true);
}

/** The text of an ASCII STL with `triangles` facets. */
export function asciiStl(triangles: number, { name = "model", indent = "  ", newline = "\n" } = {}): string {
  const lines = [`solid ${name}`];
  for (let index = 0; index < triangles; index++) {
    lines.push(
      `${indent}facet normal 0 0 1`,
      `${indent}${indent}outer loop`,
      `${indent}${indent}${indent}vertex ${index} 0 0`,
      `${indent}${indent}${indent}vertex ${index + 1} 0 0`,
      `${indent}${indent}${indent}vertex ${index} 1 0`,
      `${indent}${indent}endloop`,
      `${indent}endfacet`,
    );
  }
  lines.push(`endsolid ${name}`);
  return lines.join(newline) + newline;
}

export const BINARY_CHUNK_TRIANGLES = 20_000; // 1,000,000 bytes

/**
 * A valid binary STL of exactly `totalBytes` (84 + 50 × n) made chunk by chunk, so even 100 MiB
 * never sits in memory at once. The triangle data is repeated from one reusable buffer.
 */
export async function* binaryStlChunks(triangles: number): AsyncGenerator<Uint8Array> {
  const header = new Uint8Array(84);
  header.set(new TextEncoder().encode("binary STL generated for tests".padEnd(80, " ")));
  new DataView(header.buffer).setUint32(80, triangles, true);
  yield header;
  const block = binaryStl(BINARY_CHUNK_TRIANGLES).subarray(84);
  let left = triangles;
  while (left > 0) {
    const count = Math.min(left, BINARY_CHUNK_TRIANGLES);
    yield block.slice(0, count * 50);
    left -= count;
  }
}

/** `totalBytes` of filler made chunk by chunk (not a valid STL of any kind). */
export async function* fillerChunks(totalBytes: number, chunkBytes = 1024 * 1024): AsyncGenerator<Uint8Array> {
  let left = totalBytes;
  while (left > 0) {
    const size = Math.min(left, chunkBytes);
    const chunk = new Uint8Array(size);
    for (let index = 0; index < size; index += 4096) chunk[index] = (index / 4096) & 0xff;
    yield chunk;
    left -= size;
  }
}
