import type { BufferGeometry } from "three";
import { STLLoader } from "three/examples/jsm/loaders/STLLoader.js";
import { createStlScanner } from "~/modules/uploads/scan";
import { STL_BINARY_HEADER_BYTES, STL_BINARY_TRIANGLE_BYTES } from "~/modules/uploads/stl";

/**
 * The preview's reading of a stored model: the upload's own verdict (uploads/scan.ts) decides what
 * the file is, and three.js's STLLoader builds the geometry from exactly that, so the preview shows
 * every file the upload accepted, with the same triangles (ADR 025):
 *  - a binary file with bytes after the triangles its header counts is handed over without them
 *    (three.js would read a "solid" header with extra bytes as text and find nothing);
 *  - an ASCII file is handed over in lower case (three.js knows only lower-case keywords; numbers
 *    read the same, "1E-3" as "1e-3").
 * Only this copy in the browser's memory changes; the stored file stays as it was sent.
 * Throws when the upload would have refused the file.
 */
export function previewGeometry(buffer: ArrayBuffer): BufferGeometry {
  const scanner = createStlScanner();
  scanner.update(new Uint8Array(buffer));
  const { verdict } = scanner.finish();
  if (!verdict.ok) throw new Error(`not an STL model (${verdict.reason})`);
  const loader = new STLLoader();
  if (verdict.format === "binary") {
    const triangleBytes = STL_BINARY_HEADER_BYTES + STL_BINARY_TRIANGLE_BYTES * verdict.triangles;
    return loader.parse(buffer.byteLength === triangleBytes ? buffer : buffer.slice(0, triangleBytes));
  }
  return loader.parse(new TextDecoder("latin1").decode(buffer).toLowerCase());
}
