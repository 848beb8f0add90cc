import { createStlInspector, STL_BINARY_HEADER_BYTES, STL_BINARY_TRIANGLE_BYTES, type StlFormat, type StlVerdict } from "./stl";

/**
 * Scan checks of an uploaded STL (issue 4): what a lab looks at before printing. Fed chunk by chunk
 * beside the content check, in bounded memory whatever the file size:
 *
 *  - the bounding box in millimetres (STL has no units; dental software writes mm), and a warning
 *    when its largest side is outside what a dental arch measures — the usual sign of a model
 *    exported in centimetres, inches, metres or micrometres;
 *  - degenerate triangles: zero area (repeated or collinear corners);
 *  - an open mesh: edges that do not belong to exactly two triangles (holes, a scan's open
 *    border, non-manifold seams).
 *
 * Edges are not stored. Each edge (its two corners, identified by their exact coordinates) toggles
 * one bit of a fixed 2 MiB parity table: an edge shared by two triangles toggles its bit twice and
 * leaves no trace, an edge used an odd number of times leaves its bit set. The number of set bits
 * is therefore the number of odd edges, except that two odd edges falling on the same bit cancel
 * out (with 16.7 million bits that needs thousands of open edges to matter). So a closed mesh is
 * never reported open, and `boundaryEdges` is a lower bound of the open edges.
 *
 * A warning never refuses a file; only the content check (stl.ts) refuses.
 */

export type ScanWarning = "too_small" | "too_large" | "degenerate" | "open_mesh" | "bad_coordinates";

export interface ScanSummary {
  format: StlFormat;
  triangles: number;
  /** Size of the bounding box, millimetres, rounded to 0.1; null when no corner had finite coordinates. */
  size: { x: number; y: number; z: number } | null;
  /** Triangles of zero area. */
  degenerate: number;
  /** Edges not shared by exactly two triangles (a lower bound, see above). */
  boundaryEdges: number;
  /** Triangles skipped because a coordinate was not a finite number. */
  badTriangles: number;
  warnings: ScanWarning[];
}

/** A dental arch model measures about 50–90 mm across; outside 20–200 mm the units are likely wrong. */
export const ARCH_MIN_MM = 20;
export const ARCH_MAX_MM = 200;

const PARITY_BITS = 1 << 24; // 2 MiB
/** Bytes that never occur in STL text (as in stl.ts). */
// eslint-disable-next-line no-control-regex
const NOT_TEXT = /[\u0000-\u0008\u000e-\u001f\u007f]/;
/** How much of the start decides whether the text begins with "solid". */
const HEAD_CHARS = 16;
/** An ASCII line longer than this is not STL text (the carry between chunks stays small). */
const MAX_LINE = 1024;

const float32 = new Float32Array(1);
const float32Bits = new Uint32Array(float32.buffer);

function bitsOf(value: number): number {
  float32[0] = value;
  return float32Bits[0];
}

/** Mixes three 32-bit words into one well-spread 32-bit hash (murmur3-style finaliser). */
function hash3(a: number, b: number, c: number): number {
  let h = Math.imul(a ^ 0x9e3779b9, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h ^ b, 0xc2b2ae35);
  h ^= h >>> 16;
  h = Math.imul(h ^ c, 0x27d4eb2f);
  h ^= h >>> 15;
  return h >>> 0;
}

/** Geometry of one candidate reading of the file (binary or ASCII). */
class Geometry {
  degenerate = 0;
  badTriangles = 0;
  private min = [Infinity, Infinity, Infinity];
  private max = [-Infinity, -Infinity, -Infinity];
  private parity: Uint8Array | null = null;

  /** Corners as 9 numbers (x0 y0 z0 x1 …), read as float32 like the file stores them. */
  add(v: ArrayLike<number>): void {
    for (let index = 0; index < 9; index++) {
      if (!Number.isFinite(v[index])) {
        this.badTriangles++;
        return;
      }
    }
    for (let corner = 0; corner < 9; corner += 3) {
      for (let axis = 0; axis < 3; axis++) {
        const value = v[corner + axis];
        if (value < this.min[axis]) this.min[axis] = value;
        if (value > this.max[axis]) this.max[axis] = value;
      }
    }
    const ax = v[3] - v[0], ay = v[4] - v[1], az = v[5] - v[2];
    const bx = v[6] - v[0], by = v[7] - v[1], bz = v[8] - v[2];
    const cx = ay * bz - az * by, cy = az * bx - ax * bz, cz = ax * by - ay * bx;
    const doubleArea = Math.sqrt(cx * cx + cy * cy + cz * cz);
    const longest = Math.max(ax * ax + ay * ay + az * az, bx * bx + by * by + bz * bz, (v[6] - v[3]) ** 2 + (v[7] - v[4]) ** 2 + (v[8] - v[5]) ** 2);
    // Collinear within float precision, or two corners at one point.
    if (doubleArea <= 1e-7 * longest || longest === 0) this.degenerate++;

    const h0 = hash3(bitsOf(v[0]), bitsOf(v[1]), bitsOf(v[2]));
    const h1 = hash3(bitsOf(v[3]), bitsOf(v[4]), bitsOf(v[5]));
    const h2 = hash3(bitsOf(v[6]), bitsOf(v[7]), bitsOf(v[8]));
    this.toggleEdge(h0, h1);
    this.toggleEdge(h1, h2);
    this.toggleEdge(h2, h0);
  }

  private toggleEdge(a: number, b: number): void {
    if (a === b) return; // a corner repeated: no edge (the triangle counts as degenerate)
    this.parity ??= new Uint8Array(PARITY_BITS / 8);
    const bit = hash3(Math.min(a, b), Math.max(a, b), 0x5bd1e995) & (PARITY_BITS - 1);
    this.parity[bit >>> 3] ^= 1 << (bit & 7);
  }

  /** `triangles`: the content check's count (ASCII counts facets, not corners). */
  summary(format: StlFormat, triangles: number): ScanSummary {
    let boundaryEdges = 0;
    if (this.parity) {
      for (let index = 0; index < this.parity.length; index++) {
        let byte = this.parity[index];
        while (byte) {
          boundaryEdges += byte & 1;
          byte >>>= 1;
        }
      }
    }
    const finite = this.min[0] <= this.max[0];
    const round = (value: number) => Math.round(value * 10) / 10;
    const size = finite ? { x: round(this.max[0] - this.min[0]), y: round(this.max[1] - this.min[1]), z: round(this.max[2] - this.min[2]) } : null;
    const warnings: ScanWarning[] = [];
    if (size) {
      const largest = Math.max(size.x, size.y, size.z);
      if (largest < ARCH_MIN_MM) warnings.push("too_small");
      if (largest > ARCH_MAX_MM) warnings.push("too_large");
    }
    if (this.degenerate > 0) warnings.push("degenerate");
    if (boundaryEdges > 0) warnings.push("open_mesh");
    if (this.badTriangles > 0) warnings.push("bad_coordinates");
    return { format, triangles, size, degenerate: this.degenerate, boundaryEdges, badTriangles: this.badTriangles, warnings };
  }
}

/** Reads 50-byte triangle records after the 84-byte header, across chunk boundaries. */
class BinaryReader {
  readonly geometry = new Geometry();
  private offset = 0;
  private readonly record = new Uint8Array(STL_BINARY_TRIANGLE_BYTES);
  private readonly recordView = new DataView(this.record.buffer);
  private filled = 0;
  private readonly corners = new Float64Array(9);

  update(chunk: Uint8Array): void {
    let index = 0;
    if (this.offset < STL_BINARY_HEADER_BYTES) index = Math.min(chunk.length, STL_BINARY_HEADER_BYTES - this.offset);
    const view = new DataView(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    while (index < chunk.length) {
      if (this.filled === 0 && chunk.length - index >= STL_BINARY_TRIANGLE_BYTES) {
        this.triangle(view, index);
        index += STL_BINARY_TRIANGLE_BYTES;
        continue;
      }
      const take = Math.min(STL_BINARY_TRIANGLE_BYTES - this.filled, chunk.length - index);
      this.record.set(chunk.subarray(index, index + take), this.filled);
      this.filled += take;
      index += take;
      if (this.filled === STL_BINARY_TRIANGLE_BYTES) {
        this.triangle(this.recordView, 0);
        this.filled = 0;
      }
    }
    this.offset += chunk.length;
  }

  private triangle(view: DataView, at: number): void {
    // 12 bytes of normal, then three corners of three float32 each.
    for (let index = 0; index < 9; index++) this.corners[index] = view.getFloat32(at + 12 + index * 4, true);
    this.geometry.add(this.corners);
  }
}

/** Reads `vertex x y z` lines of an ASCII STL, three corners per triangle. */
class AsciiReader {
  readonly geometry = new Geometry();
  alive = true;
  private head = "";
  private carry = "";
  private readonly decoder = new TextDecoder("latin1");
  private readonly corners = new Float64Array(9);
  private corner = 0;

  update(chunk: Uint8Array): void {
    if (!this.alive) return;
    const decoded = this.decoder.decode(chunk);
    if (this.head.length < HEAD_CHARS) {
      this.head += decoded.slice(0, HEAD_CHARS);
      // After an optional BOM and blanks the text must start with "solid".
      if (this.head.length >= HEAD_CHARS && !/^(\u00ef\u00bb\u00bf)?\s*solid/i.test(this.head)) this.alive = false;
    }
    if (NOT_TEXT.test(decoded)) this.alive = false;
    if (!this.alive) return;
    const text = this.carry + decoded;
    const lines = text.split(/\r\n|\r|\n/);
    this.carry = lines.pop() ?? "";
    if (this.carry.length > MAX_LINE) {
      this.alive = false;
      return;
    }
    for (const line of lines) this.line(line);
  }

  finish(): void {
    if (this.alive && this.carry) this.line(this.carry);
    this.carry = "";
  }

  private line(raw: string): void {
    const line = raw.trim();
    if (line.length < 6) return;
    const keyword = line.slice(0, 6).toLowerCase();
    if (keyword === "vertex") {
      const parts = line.slice(6).trim().split(/\s+/);
      if (this.corner < 3) {
        for (let axis = 0; axis < 3; axis++) this.corners[this.corner * 3 + axis] = Math.fround(Number(parts[axis] ?? NaN));
      }
      this.corner++;
      if (this.corner === 3) this.geometry.add(this.corners);
    } else if (keyword === "outer " || keyword === "endloo") {
      this.corner = 0;
    }
  }
}

export interface StlScanner {
  /** Feed the next chunk; it is not retained. */
  update(chunk: Uint8Array): void;
  /** The content verdict (stl.ts rules) and, for an STL, its scan. Call once, after the last chunk. */
  finish(): { verdict: StlVerdict; scan: ScanSummary | null };
  readonly bytes: number;
}

/**
 * The content check and the scan in one pass. Until the end it is not known whether a file that
 * begins with "solid" is ASCII or a binary file with a "solid" header, so both readings run while
 * both are possible; the ASCII one stops at the first byte that text never has.
 */
export function createStlScanner(): StlScanner {
  const inspector = createStlInspector();
  const binary = new BinaryReader();
  const ascii = new AsciiReader();

  return {
    get bytes() {
      return inspector.bytes;
    },
    update(chunk) {
      if (chunk.length === 0) return;
      inspector.update(chunk);
      binary.update(chunk);
      ascii.update(chunk);
    },
    finish() {
      const verdict = inspector.finish();
      if (!verdict.ok) return { verdict, scan: null };
      if (verdict.format === "binary") return { verdict, scan: binary.geometry.summary("binary", verdict.triangles) };
      ascii.finish();
      return { verdict, scan: ascii.geometry.summary("ascii", verdict.triangles) };
    },
  };
}
