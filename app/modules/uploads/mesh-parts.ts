import type { StlVerdict } from "./stl";

/** What the PLY and OBJ readers share (mesh.ts, ADR 102): the held vertices, the fan of a face, text lines across chunks. */

/** Receives each triangle: x0 y0 z0 x1 y1 z1 x2 y2 z2 as float32 values (the array is reused). */
export type TriangleSink = (corners: Float32Array) => void;

export interface MeshReader {
  /** Feed the next chunk; it is not retained. */
  update(chunk: Uint8Array): void;
  /** The verdict for everything fed so far. Call once, after the last chunk. */
  finish(): StlVerdict;
}

/** A polygon of more corners than this is damaged data, not a face (it also bounds what one record holds). */
export const MAX_POLYGON = 65_536;
/** A PLY header longer than this is not a PLY header. */
export const MAX_HEADER_BYTES = 64 * 1024;
/** A text line longer than this is not OBJ or PLY text. */
const MAX_LINE = 1024 * 1024;
// eslint-disable-next-line no-control-regex
const NOT_TEXT = /[\u0000-\u0008\u000e-\u001f\u007f]/;

export class Vertices {
  private data = new Float32Array(3 * 4096);
  count = 0;

  push(x: number, y: number, z: number): void {
    const at = this.count * 3;
    if (at + 3 > this.data.length) {
      const grown = new Float32Array(this.data.length * 2);
      grown.set(this.data);
      this.data = grown;
    }
    this.data[at] = x;
    this.data[at + 1] = y;
    this.data[at + 2] = z;
    this.count++;
  }

  copy(index: number, into: Float32Array, at: number): void {
    const from = index * 3;
    into[at] = this.data[from]!;
    into[at + 1] = this.data[from + 1]!;
    into[at + 2] = this.data[from + 2]!;
  }
}

export type FaceResult = "ok" | "bad_index" | "malformed";

/** Turns one face (zero-based vertex indices) into a fan of triangles for the sink. */
export class Fan {
  triangles = 0;
  private readonly corners = new Float32Array(9);
  constructor(private readonly vertices: Vertices, private readonly sink: TriangleSink) {}

  emit(indices: Float64Array, length: number): FaceResult {
    if (length < 3) return "malformed";
    const count = this.vertices.count;
    for (let index = 0; index < length; index++) {
      const vertex = indices[index]!;
      if (!(vertex >= 0 && vertex < count)) return "bad_index";
    }
    this.vertices.copy(indices[0]!, this.corners, 0);
    for (let index = 1; index + 1 < length; index++) {
      this.vertices.copy(indices[index]!, this.corners, 3);
      this.vertices.copy(indices[index + 1]!, this.corners, 6);
      this.sink(this.corners);
      this.triangles++;
    }
    return "ok";
  }
}

/** Splits text into lines across chunks (CR, LF or CRLF), refusing over-long lines and control bytes. */
export class Lines {
  private carry = "";
  private readonly decoder = new TextDecoder("latin1");
  failed = false;
  constructor(private readonly line: (text: string) => void) {}

  text(text: string): void {
    if (this.failed) return;
    if (NOT_TEXT.test(text)) {
      this.failed = true;
      return;
    }
    const lines = (this.carry + text).split(/\r\n|\r|\n/);
    this.carry = lines.pop() ?? "";
    if (this.carry.length > MAX_LINE) {
      this.failed = true;
      return;
    }
    for (const line of lines) this.line(line);
  }

  bytes(chunk: Uint8Array): void {
    this.text(this.decoder.decode(chunk));
  }

  finish(): void {
    if (!this.failed && this.carry) this.line(this.carry);
    this.carry = "";
  }
}

