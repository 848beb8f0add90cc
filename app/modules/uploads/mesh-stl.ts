import { createMeshReader } from "./mesh";
import { STL_BINARY_HEADER_BYTES, STL_BINARY_TRIANGLE_BYTES } from "./stl";

/**
 * The binary STL the factory gets for a PLY or OBJ a doctor sent (ADR 102): the source read again by
 * the reader the checks used (mesh.ts), each triangle written as it comes — its corners the
 * source's float32 values unchanged, a polygon fanned as the checks fanned it, the normal computed
 * from the corners. `triangles` is the checks' count: it goes in the header before the first
 * record, and a source that gives another count fails the conversion.
 */

/** Records written per chunk given on (about 50 KiB). */
const BATCH = 1024;

export const binaryStlBytes = (triangles: number) => STL_BINARY_HEADER_BYTES + STL_BINARY_TRIANGLE_BYTES * triangles;

export class ConversionMismatch extends Error {
  constructor(expected: number, got: number) {
    super(`The source gave ${got} triangles, the checks counted ${expected}`);
    this.name = "ConversionMismatch";
  }
}

function header(triangles: number): Uint8Array {
  const bytes = new Uint8Array(STL_BINARY_HEADER_BYTES);
  // An 80-byte label that does not start with "solid", so no reader takes the file for text.
  bytes.set(new TextEncoder().encode("binary STL converted from the file the doctor sent"));
  new DataView(bytes.buffer).setUint32(80, triangles, true);
  return bytes;
}

export async function* binaryStlOf(source: AsyncIterable<Uint8Array>, format: "ply" | "obj", triangles: number): AsyncGenerator<Uint8Array> {
  yield header(triangles);
  let batch = new Uint8Array(BATCH * STL_BINARY_TRIANGLE_BYTES);
  let view = new DataView(batch.buffer);
  let inBatch = 0;
  let written = 0;
  const reader = createMeshReader(format, (v) => {
    const at = inBatch * STL_BINARY_TRIANGLE_BYTES;
    const ax = v[3]! - v[0]!, ay = v[4]! - v[1]!, az = v[5]! - v[2]!;
    const bx = v[6]! - v[0]!, by = v[7]! - v[1]!, bz = v[8]! - v[2]!;
    const nx = ay * bz - az * by, ny = az * bx - ax * bz, nz = ax * by - ay * bx;
    const length = Math.sqrt(nx * nx + ny * ny + nz * nz);
    const scale = length > 0 && Number.isFinite(length) ? 1 / length : 0;
    view.setFloat32(at, nx * scale, true);
    view.setFloat32(at + 4, ny * scale, true);
    view.setFloat32(at + 8, nz * scale, true);
    for (let index = 0; index < 9; index++) view.setFloat32(at + 12 + index * 4, v[index]!, true);
    // bytes 48..49: the attribute count, 0
    inBatch++;
    written++;
    if (inBatch === BATCH) flush();
  });
  const ready: Uint8Array[] = [];
  function flush() {
    if (inBatch === 0) return;
    ready.push(batch.subarray(0, inBatch * STL_BINARY_TRIANGLE_BYTES));
    batch = new Uint8Array(BATCH * STL_BINARY_TRIANGLE_BYTES);
    view = new DataView(batch.buffer);
    inBatch = 0;
  }
  for await (const chunk of source) {
    // Fed in slices, so what waits to be given on stays small whatever the chunk's size.
    for (let offset = 0; offset < chunk.length; offset += 16_384) {
      reader.update(chunk.subarray(offset, offset + 16_384));
      while (ready.length > 0) yield ready.shift()!;
    }
  }
  const verdict = reader.finish();
  flush();
  while (ready.length > 0) yield ready.shift()!;
  if (!verdict.ok || written !== triangles) throw new ConversionMismatch(triangles, written);
}
