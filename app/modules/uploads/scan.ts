import { createStlInspector, STL_BINARY_HEADER_BYTES, STL_BINARY_TRIANGLE_BYTES, STL_MAX_PLAUSIBLE_TRIANGLES, type StlVerdict } from "./stl";
import { createMeshReader, type MeshFormat } from "./mesh";
import type { ScanSummary, ScanWarning, StlFormat } from "~/modules/orders/recorded-scan";

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
 * one bit of a fixed 256 KiB parity table: an edge shared by two triangles toggles its bit twice and
 * leaves no trace, an edge used an odd number of times leaves its bit set. The number of set bits
 * is therefore the number of odd edges, except that two odd edges falling on the same bit cancel
 * out (with 2.1 million bits that needs hundreds of open edges to matter). So a closed mesh is
 * never reported open, and `boundaryEdges` is a lower bound of the open edges.
 *
 * A warning never refuses a file; only the content check (stl.ts) refuses.
 */

export type { ScanSummary } from "~/modules/orders/recorded-scan";

export interface ScanBounds {
  min: [number, number, number];
  max: [number, number, number];
}

/** A dental arch model measures about 50–90 mm across; outside 20–200 mm the units are likely wrong. */
export const ARCH_MIN_MM = 20;
export const ARCH_MAX_MM = 200;

const PARITY_LOG2 = 21;
const PARITY_BITS = 1 << PARITY_LOG2; // 256 KiB: fits a core's L2 cache, so toggling stays cheap
/** Bytes that never occur in STL text (as in stl.ts). */
// eslint-disable-next-line no-control-regex
const NOT_TEXT = /[\u0000-\u0008\u000e-\u001f\u007f]/;
/**
 * Coordinates beyond ±10 km (in mm) come from bytes that are not triangles (a renamed image or
 * text read as floats), never from a model: used only where the size rule alone does not decide.
 */
const PLAUSIBLE_COORDINATE = 1e7;
/** How much of the start decides whether the text begins with "solid". */
const HEAD_CHARS = 16;
/** An ASCII line longer than this is not STL text (the carry between chunks stays small). */
const MAX_LINE = 1024;

const float32 = new Float32Array(1);
const float32Bits = new Uint32Array(float32.buffer);

/** The bits of `value` stored as float32 (how a binary STL holds it). */
export function bitsOf(value: number): number {
  float32[0] = value;
  return float32Bits[0];
}

/** Mixes three 32-bit words into one well-spread 32-bit hash (murmur3-style finaliser). */
export function hash3(a: number, b: number, c: number): number {
  let h = Math.imul(a ^ 0x9e3779b9, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h ^ b, 0xc2b2ae35);
  h ^= h >>> 16;
  h = Math.imul(h ^ c, 0x27d4eb2f);
  h ^= h >>> 15;
  return h >>> 0;
}

function min3(a: number, b: number, c: number): number {
  const ab = a < b ? a : b;
  return c < ab ? c : ab;
}

function max3(a: number, b: number, c: number): number {
  const ab = a > b ? a : b;
  return c > ab ? c : ab;
}

/**
 * Geometry of one candidate reading of the file (binary or ASCII). It runs once per triangle on
 * every upload (two million times for 100 MiB), so it works on plain numbers, not arrays.
 */
export class Geometry {
  degenerate = 0;
  badTriangles = 0;
  private minX = Infinity;
  private minY = Infinity;
  private minZ = Infinity;
  private maxX = -Infinity;
  private maxY = -Infinity;
  private maxZ = -Infinity;
  private parity: Uint8Array | null = null;

  /** The triangle `add` reads: corners x0 y0 z0 x1 … as read from the file (float32 values). */
  readonly corners = new Float64Array(9);
  /** For each corner, hash3 of its three float32 bit patterns (the corner's identity). */
  readonly cornerHashes = new Uint32Array(3);

  /**
   * Adds the triangle in `corners`/`cornerHashes`. Readers fill those typed arrays instead of
   * passing numbers: a call that does not get inlined boxes each double argument, and two million
   * triangles then make hundreds of megabytes of garbage.
   */
  add(): void {
    const v = this.corners;
    const x0 = v[0], y0 = v[1], z0 = v[2], x1 = v[3], y1 = v[4], z1 = v[5], x2 = v[6], y2 = v[7], z2 = v[8];
    // x - x is NaN for NaN and ±Infinity, 0 for every finite x.
    if (x0 - x0 + y0 - y0 + z0 - z0 + x1 - x1 + y1 - y1 + z1 - z1 + x2 - x2 + y2 - y2 + z2 - z2 !== 0) {
      this.badTriangles++;
      return;
    }
    // Plain comparisons: Math.min/max with several arguments cost twice as much here.
    const loX = min3(x0, x1, x2), loY = min3(y0, y1, y2), loZ = min3(z0, z1, z2);
    const hiX = max3(x0, x1, x2), hiY = max3(y0, y1, y2), hiZ = max3(z0, z1, z2);
    if (loX < this.minX) this.minX = loX;
    if (loY < this.minY) this.minY = loY;
    if (loZ < this.minZ) this.minZ = loZ;
    if (hiX > this.maxX) this.maxX = hiX;
    if (hiY > this.maxY) this.maxY = hiY;
    if (hiZ > this.maxZ) this.maxZ = hiZ;

    const ax = x1 - x0, ay = y1 - y0, az = z1 - z0;
    const bx = x2 - x0, by = y2 - y0, bz = z2 - z0;
    const ex = x2 - x1, ey = y2 - y1, ez = z2 - z1;
    const cx = ay * bz - az * by, cy = az * bx - ax * bz, cz = ax * by - ay * bx;
    const doubleArea = Math.sqrt(cx * cx + cy * cy + cz * cz);
    const longest = Math.max(ax * ax + ay * ay + az * az, bx * bx + by * by + bz * bz, ex * ex + ey * ey + ez * ez);
    // Collinear within float precision, or two corners at one point.
    if (doubleArea <= 1e-7 * longest || longest === 0) this.degenerate++;

    const hashes = this.cornerHashes;
    const h0 = hashes[0], h1 = hashes[1], h2 = hashes[2];
    this.toggleEdge(h0, h1);
    this.toggleEdge(h1, h2);
    this.toggleEdge(h2, h0);
  }

  private toggleEdge(a: number, b: number): void {
    if (a === b) return; // a corner repeated: no edge (the triangle counts as degenerate)
    this.parity ??= new Uint8Array(PARITY_BITS / 8);
    // The corner hashes are already well spread, so the edge needs only an order-free mix of
    // the two (multiplicative hashing of their XOR, top bits).
    const bit = Math.imul(a ^ b, 0x9e3779b1) >>> (32 - PARITY_LOG2);
    this.parity[bit >>> 3] ^= 1 << (bit & 7);
  }

  /** The box of the finite corners read, as float32 values (null when there were none). */
  bounds(): ScanBounds | null {
    if (!(this.minX <= this.maxX)) return null;
    return { min: [this.minX, this.minY, this.minZ], max: [this.maxX, this.maxY, this.maxZ] };
  }

  /** Whether what was read looks like triangles of a model (every corner finite and within ±10 km). */
  plausible(): boolean {
    if (this.badTriangles > 0 || !(this.minX <= this.maxX)) return false;
    const extent = Math.max(-this.minX, this.maxX, -this.minY, this.maxY, -this.minZ, this.maxZ);
    return extent <= PLAUSIBLE_COORDINATE;
  }

  /**
   * Adds a triangle from its nine float32 corner values (the PLY and OBJ readers, mesh.ts), the
   * corners identified by their bits as a binary STL of it would identify them.
   */
  addCorners(values: ArrayLike<number>): void {
    const { corners, cornerHashes } = this;
    for (let index = 0; index < 9; index++) corners[index] = values[index]!;
    for (let index = 0; index < 3; index++) cornerHashes[index] = hash3(bitsOf(corners[index * 3]!), bitsOf(corners[index * 3 + 1]!), bitsOf(corners[index * 3 + 2]!));
    this.add();
  }

  /** `triangles`: the content check's count (ASCII counts facets, not corners). */
  summary(format: StlFormat, triangles: number, extraBytes = 0): ScanSummary {
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
    const finite = this.minX <= this.maxX;
    const round = (value: number) => Math.round(value * 10) / 10;
    const size = finite ? { x: round(this.maxX - this.minX), y: round(this.maxY - this.minY), z: round(this.maxZ - this.minZ) } : null;
    const warnings: ScanWarning[] = [];
    if (size) {
      const largest = Math.max(size.x, size.y, size.z);
      if (largest < ARCH_MIN_MM) warnings.push("too_small");
      if (largest > ARCH_MAX_MM) warnings.push("too_large");
    }
    if (this.degenerate > 0) warnings.push("degenerate");
    if (boundaryEdges > 0) warnings.push("open_mesh");
    if (this.badTriangles > 0) warnings.push("bad_coordinates");
    if (extraBytes > 0) warnings.push("extra_bytes");
    return { format, triangles, size, degenerate: this.degenerate, boundaryEdges, badTriangles: this.badTriangles, extraBytes, warnings };
  }
}

/**
 * Reads 50-byte triangle records after the 84-byte header, across chunk boundaries, and no more
 * records than the header counts (bytes after them are not triangles).
 */
class BinaryReader {
  readonly geometry = new Geometry();
  /** Complete records read (at most the header's count). */
  records = 0;
  private offset = 0;
  private readonly countBytes = new Uint8Array(4);
  private limit = Infinity;

  /** The header's triangle count (0 until the header is complete). */
  get declared(): number {
    return this.limit === Infinity ? 0 : this.limit;
  }
  private readonly record = new Uint8Array(STL_BINARY_TRIANGLE_BYTES);
  private readonly recordView = new DataView(this.record.buffer);
  private filled = 0;

  update(chunk: Uint8Array): void {
    let index = 0;
    if (this.offset < STL_BINARY_HEADER_BYTES) {
      index = Math.min(chunk.length, STL_BINARY_HEADER_BYTES - this.offset);
      for (let at = 0; at < index; at++) if (this.offset + at >= 80) this.countBytes[this.offset + at - 80] = chunk[at]!;
      if (this.offset + index === STL_BINARY_HEADER_BYTES) this.limit = new DataView(this.countBytes.buffer).getUint32(0, true);
    }
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
    if (this.records >= this.limit) return;
    this.records++;
    // 12 bytes of normal, then three corners of three float32 each; corners are hashed by their bits.
    const { corners, cornerHashes } = this.geometry;
    const p = at + 12;
    for (let index = 0; index < 9; index++) corners[index] = view.getFloat32(p + index * 4, true);
    cornerHashes[0] = hash3(view.getUint32(p, true), view.getUint32(p + 4, true), view.getUint32(p + 8, true));
    cornerHashes[1] = hash3(view.getUint32(p + 12, true), view.getUint32(p + 16, true), view.getUint32(p + 20, true));
    cornerHashes[2] = hash3(view.getUint32(p + 24, true), view.getUint32(p + 28, true), view.getUint32(p + 32, true));
    this.geometry.add();
  }
}

/** Reads `vertex x y z` lines of an ASCII STL, three corners per triangle. */
class AsciiReader {
  readonly geometry = new Geometry();
  alive = true;
  private head = "";
  private carry = "";
  private readonly decoder = new TextDecoder("latin1");
  private corner = 0;
  /** A facet's loop had other than three corners: no outside reader makes a mesh of that. */
  malformed = false;

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
        for (let axis = 0; axis < 3; axis++) this.geometry.corners[this.corner * 3 + axis] = Math.fround(Number(parts[axis] ?? NaN));
      }
      this.corner++;
      if (this.corner === 3) {
        const { corners: v, cornerHashes } = this.geometry;
        for (let index = 0; index < 3; index++) cornerHashes[index] = hash3(bitsOf(v[index * 3]), bitsOf(v[index * 3 + 1]), bitsOf(v[index * 3 + 2]));
        this.geometry.add();
      }
    } else if (keyword === "outer ") {
      this.corner = 0;
    } else if (keyword === "endloo") {
      if (this.corner !== 3) this.malformed = true;
      this.corner = 0;
    }
  }
}

/**
 * A binary file whose size is not 84 + 50 × its header's count, once it is known not to be an ASCII
 * STL (ADR 025, tests/fixtures/stl/manifest.json):
 *  - more bytes than the count needs: read as the header's count of triangles, as three.js and
 *    numpy-stl do, with a warning (`extra_bytes`); the file itself is stored as sent;
 *  - fewer: a copy cut short, refused as `truncated` so it never reaches the factory.
 * Either only when the triangles read are plausible; otherwise the bytes are no model (`not_stl`).
 */
function binaryByHeaderCount(total: number, binary: BinaryReader): { verdict: StlVerdict; scan: ScanSummary | null } | null {
  const count = binary.records;
  if (count < 1 || binary.declared > STL_MAX_PLAUSIBLE_TRIANGLES || !binary.geometry.plausible()) return null;
  const needed = STL_BINARY_HEADER_BYTES + STL_BINARY_TRIANGLE_BYTES * binary.declared;
  if (total < needed) return { verdict: { ok: false, reason: "truncated" }, scan: null };
  const extraBytes = total - needed;
  return { verdict: { ok: true, format: "binary", triangles: count, extraBytes }, scan: binary.geometry.summary("binary", count, extraBytes) };
}

export interface StlScanner {
  /** Feed the next chunk; it is not retained. */
  update(chunk: Uint8Array): void;
  /**
   * The content verdict (stl.ts rules) and, for an STL, its scan and the box of its corners as read
   * (the exact values behind `scan.size`). Call once, after the last chunk.
   */
  finish(): { verdict: StlVerdict; scan: ScanSummary | null; bounds: ScanBounds | null };
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
      const refused = (verdict: StlVerdict) => ({ verdict, scan: null, bounds: null });
      const verdict = inspector.finish();
      if (verdict.ok && verdict.format === "binary") return { verdict, scan: binary.geometry.summary("binary", verdict.triangles), bounds: binary.geometry.bounds() };
      if (verdict.ok) {
        ascii.finish();
        if (ascii.malformed) return refused({ ok: false, reason: "not_stl" });
        return { verdict, scan: ascii.geometry.summary("ascii", verdict.triangles), bounds: ascii.geometry.bounds() };
      }
      if (verdict.reason === "empty") return refused(verdict);
      const byCount = binaryByHeaderCount(inspector.bytes, binary);
      if (!byCount?.verdict.ok) return refused(byCount?.verdict ?? verdict);
      return { ...byCount, bounds: binary.geometry.bounds() };
    },
  };
}

/**
 * The content check and the scan of a file of any format the wizard takes (ADR 102): an STL by
 * createStlScanner, a PLY or OBJ by its reader (mesh.ts), whose triangles go through the same checks.
 */
export function createMeshScanner(format: MeshFormat): StlScanner {
  if (format === "stl") return createStlScanner();
  const geometry = new Geometry();
  const reader = createMeshReader(format, (corners) => geometry.addCorners(corners));
  let bytes = 0;
  return {
    get bytes() {
      return bytes;
    },
    update(chunk) {
      bytes += chunk.length;
      reader.update(chunk);
    },
    finish() {
      const verdict = reader.finish();
      if (!verdict.ok) return { verdict, scan: null, bounds: null };
      return { verdict, scan: { ...geometry.summary(verdict.format, verdict.triangles), source: format }, bounds: geometry.bounds() };
    },
  };
}
