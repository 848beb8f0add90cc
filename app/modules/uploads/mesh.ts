import type { StlVerdict } from "./stl";

/**
 * Streaming readers of the two other mesh formats doctors' software exports beside STL (ADR 102):
 * PLY (ASCII, binary little- and big-endian) and Wavefront OBJ. Each reads a file chunk by chunk
 * and hands every triangle, as nine float32 values, to a sink: the scan (scan.ts) checks them as it
 * checks an STL's, and the conversion (mesh-stl.ts) writes them as binary STL records. One reader
 * for both, so the STL the factory gets has exactly the triangles the checks saw.
 *
 * The vertices are held (12 bytes each, float32 as a binary STL holds them), never the faces: a
 * face is turned into triangles as soon as it is read, a polygon as a fan from its first corner.
 * Everything else the formats carry (colours, normals, texture coordinates, quality, groups,
 * objects, materials, other PLY elements) is read past and ignored.
 *
 * Refusals, in the content check's words: `empty` (no bytes, or a mesh with nothing in it),
 * `points_only` (vertices and no faces: a point cloud), `bad_index` (a face names a vertex the file
 * does not have, or one an OBJ defines only later), `truncated` (a PLY that ends before the
 * elements its header counts), `not_stl` (damaged: not the format, or unreadable inside).
 */

export type MeshFormat = "stl" | "ply" | "obj";

/** Receives each triangle: x0 y0 z0 x1 y1 z1 x2 y2 z2 as float32 values (the array is reused). */
export type TriangleSink = (corners: Float32Array) => void;

export interface MeshReader {
  /** Feed the next chunk; it is not retained. */
  update(chunk: Uint8Array): void;
  /** The verdict for everything fed so far. Call once, after the last chunk. */
  finish(): StlVerdict;
}

/** The format a file's name says (its extension, in any case), or null for one the wizard does not take. */
export function meshFormatOf(name: string): MeshFormat | null {
  const match = /\.(stl|ply|obj)$/i.exec(name);
  return match ? (match[1]!.toLowerCase() as MeshFormat) : null;
}

/** The refusal a doctor reads: a PLY or OBJ that is not one is "not a mesh", not "not an STL". */
export function refusalOf(format: MeshFormat, reason: Extract<StlVerdict, { ok: false }>["reason"]): Extract<StlVerdict, { ok: false }>["reason"] | "not_mesh" {
  return reason === "not_stl" && format !== "stl" ? "not_mesh" : reason;
}

/** A polygon of more corners than this is damaged data, not a face (it also bounds what one record holds). */
const MAX_POLYGON = 65_536;
/** A PLY header longer than this is not a PLY header. */
const MAX_HEADER_BYTES = 64 * 1024;
/** A text line longer than this is not OBJ or PLY text. */
const MAX_LINE = 1024 * 1024;
// eslint-disable-next-line no-control-regex
const NOT_TEXT = /[\u0000-\u0008\u000e-\u001f\u007f]/;

class Vertices {
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

type FaceResult = "ok" | "bad_index" | "malformed";

/** Turns one face (zero-based vertex indices) into a fan of triangles for the sink. */
class Fan {
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
class Lines {
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

// ---------------------------------------------------------------------------------------------- OBJ

/**
 * Wavefront OBJ: `v x y z` (anything after the third number, a weight or a colour, is ignored) and
 * `f a b c …` with `a`, `a/t`, `a//n` or `a/t/n` corners, indices from 1 or negative (counted back
 * from the last vertex so far). A `\` at the end of a line continues it.
 */
export function createObjReader(sink: TriangleSink): MeshReader {
  const vertices = new Vertices();
  const fan = new Fan(vertices, sink);
  let indices = new Float64Array(64);
  let statements = 0;
  let failure: "bad_index" | "not_stl" | null = null;
  let continued = "";
  let finished = false;

  function face(parts: string[]): void {
    const length = parts.length - 1;
    if (length > MAX_POLYGON) {
      failure = "not_stl";
      return;
    }
    if (indices.length < length) indices = new Float64Array(length);
    for (let index = 0; index < length; index++) {
      const part = parts[index + 1]!;
      const slash = part.indexOf("/");
      const text = slash < 0 ? part : part.slice(0, slash);
      const number = /^[+-]?\d+$/.test(text) ? Number(text) : NaN;
      if (!Number.isSafeInteger(number) || number === 0) {
        failure = Number.isNaN(number) ? "not_stl" : "bad_index";
        return;
      }
      indices[index] = number > 0 ? number - 1 : vertices.count + number;
    }
    const result = fan.emit(indices, length);
    if (result !== "ok") failure = result === "bad_index" ? "bad_index" : "not_stl";
  }

  const lines = new Lines((raw) => {
    if (failure) return;
    if (raw.endsWith("\\")) {
      continued += raw.slice(0, -1) + " ";
      return;
    }
    const line = (continued + raw).trim();
    continued = "";
    if (line === "" || line.startsWith("#")) return;
    const parts = line.split(/\s+/);
    const keyword = parts[0]!;
    if (keyword === "v") {
      statements++;
      if (parts.length < 4) {
        failure = "not_stl";
        return;
      }
      vertices.push(Number(parts[1]), Number(parts[2]), Number(parts[3]));
    } else if (keyword === "f" || keyword === "fo") {
      statements++;
      face(parts);
    } else if (/^(vt|vn|vp|g|o|s|l|p|usemtl|mtllib|usemap|maplib|cstype|deg|bmat|step|curv|curv2|surf|parm|trim|hole|scrv|sp|end|con|mg|bevel|c_interp|d_interp|lod|shadow_obj|trace_obj|ctech|stech)$/.test(keyword)) {
      statements++;
    } else if (statements === 0) {
      failure = "not_stl"; // text, but not OBJ
    }
  });

  return {
    update(chunk) {
      if (finished) throw new Error("OBJ reader already finished");
      if (chunk.length > 0 && !failure) lines.bytes(chunk);
    },
    finish(): StlVerdict {
      finished = true;
      lines.finish();
      if (!failure && continued) {
        const rest = continued;
        continued = "";
        lines.text(rest + "\n");
        lines.finish();
      }
      if (lines.failed) return { ok: false, reason: "not_stl" };
      if (failure) return { ok: false, reason: failure };
      if (fan.triangles > 0) return { ok: true, format: "ascii", triangles: fan.triangles };
      if (vertices.count > 0) return { ok: false, reason: "points_only" };
      return { ok: false, reason: statements > 0 ? "empty" : "not_stl" };
    },
  };
}

// ---------------------------------------------------------------------------------------------- PLY

type Scalar = "int8" | "uint8" | "int16" | "uint16" | "int32" | "uint32" | "float32" | "float64";

const SCALARS: Record<string, Scalar> = {
  char: "int8", int8: "int8", uchar: "uint8", uint8: "uint8", short: "int16", int16: "int16", ushort: "uint16", uint16: "uint16",
  int: "int32", int32: "int32", uint: "uint32", uint32: "uint32", float: "float32", float32: "float32", double: "float64", float64: "float64",
};
const SIZES: Record<Scalar, number> = { int8: 1, uint8: 1, int16: 2, uint16: 2, int32: 4, uint32: 4, float32: 4, float64: 8 };
const INTEGERS = new Set<Scalar>(["int8", "uint8", "int16", "uint16", "int32", "uint32"]);

interface PlyProperty {
  name: string;
  type: Scalar;
  /** The count's type of a list property. */
  count?: Scalar;
}

interface PlyElement {
  name: string;
  count: number;
  properties: PlyProperty[];
}

interface PlyHeader {
  format: "ascii" | "binary_little_endian" | "binary_big_endian";
  elements: PlyElement[];
}

/** The header's text (up to and without `end_header`), or why it is not a PLY header. */
export function parsePlyHeader(text: string): PlyHeader | null {
  const lines = text.split(/\r\n|\r|\n/).map((line) => line.trim());
  if (lines[0] !== "ply") return null;
  let format: PlyHeader["format"] | null = null;
  const elements: PlyElement[] = [];
  for (const line of lines.slice(1)) {
    if (line === "") continue;
    const parts = line.split(/\s+/);
    switch (parts[0]) {
      case "format":
        if (parts[1] !== "ascii" && parts[1] !== "binary_little_endian" && parts[1] !== "binary_big_endian") return null;
        format = parts[1];
        break;
      case "comment":
      case "obj_info":
        break;
      case "element": {
        const count = Number(parts[2]);
        if (parts.length !== 3 || !Number.isSafeInteger(count) || count < 0) return null;
        elements.push({ name: parts[1]!, count, properties: [] });
        break;
      }
      case "property": {
        const element = elements.at(-1);
        if (!element) return null;
        if (parts[1] === "list") {
          const count = SCALARS[parts[2] ?? ""];
          const type = SCALARS[parts[3] ?? ""];
          if (parts.length !== 5 || !count || !type || !INTEGERS.has(count)) return null;
          element.properties.push({ name: parts[4]!, type, count });
        } else {
          const type = SCALARS[parts[1] ?? ""];
          if (parts.length !== 3 || !type) return null;
          element.properties.push({ name: parts[2]!, type });
        }
        break;
      }
      default:
        return null;
    }
  }
  return format ? { format, elements } : null;
}

function readScalar(view: DataView, at: number, type: Scalar, little: boolean): number {
  switch (type) {
    case "int8":
      return view.getInt8(at);
    case "uint8":
      return view.getUint8(at);
    case "int16":
      return view.getInt16(at, little);
    case "uint16":
      return view.getUint16(at, little);
    case "int32":
      return view.getInt32(at, little);
    case "uint32":
      return view.getUint32(at, little);
    case "float32":
      return view.getFloat32(at, little);
    case "float64":
      return view.getFloat64(at, little);
  }
}

/** What one element's records mean to the reader: a vertex's x, y, z, a face's corner list, or nothing. */
interface ElementRole {
  element: PlyElement;
  kind: "vertex" | "face" | "other";
  /** Property positions of x, y, z (vertex) or of the index list (face). */
  x: number;
  y: number;
  z: number;
  list: number;
}

function rolesOf(header: PlyHeader): ElementRole[] | null {
  let vertexSeen = false;
  const roles: ElementRole[] = [];
  for (const element of header.elements) {
    const position = (name: string, list: boolean) => element.properties.findIndex((property) => property.name === name && (property.count !== undefined) === list);
    if (element.name === "vertex") {
      const [x, y, z] = [position("x", false), position("y", false), position("z", false)];
      if (vertexSeen || x < 0 || y < 0 || z < 0) return null;
      vertexSeen = true;
      roles.push({ element, kind: "vertex", x, y, z, list: -1 });
    } else if (element.name === "face") {
      let list = position("vertex_indices", true);
      if (list < 0) list = position("vertex_index", true);
      if (list < 0 || (!vertexSeen && element.count > 0 && header.elements.some((other) => other.name === "vertex" && other.count > 0))) return null;
      roles.push({ element, kind: "face", x: -1, y: -1, z: -1, list });
    } else {
      roles.push({ element, kind: "other", x: -1, y: -1, z: -1, list: -1 });
    }
  }
  return roles;
}

const END_HEADER = /(^|\r\n|\r|\n)end_header[ \t]*(\r\n|\n|\r)/;

/** PLY, any of its three encodings; elements other than `vertex` and `face` are read past. */
export function createPlyReader(sink: TriangleSink): MeshReader {
  const vertices = new Vertices();
  const fan = new Fan(vertices, sink);
  const headerDecoder = new TextDecoder("latin1");
  let headerText = "";
  let headerBytes = 0;
  let header: PlyHeader | null = null;
  let roles: ElementRole[] = [];
  let failure: "bad_index" | "not_stl" | null = null;
  let finished = false;
  let empty = true;

  // Where the body is: element `current`, record `record` of it.
  let current = 0;
  let record = 0;
  let indices = new Float64Array(64);
  const values: number[] = [];

  const advance = () => {
    record++;
    while (current < roles.length && record >= roles[current]!.element.count) {
      current++;
      record = 0;
    }
  };
  const done = () => current >= roles.length;

  function vertexOrFace(role: ElementRole, length: number): void {
    if (role.kind === "vertex") vertices.push(values[role.x]!, values[role.y]!, values[role.z]!);
    else if (role.kind === "face") {
      const result = fan.emit(indices, length);
      if (result !== "ok") failure = result === "bad_index" ? "bad_index" : "not_stl";
    }
  }

  // Binary body: records read from `pending` + the new chunk.
  let pending: Uint8Array = new Uint8Array(0);
  let little = true;

  /** Reads one record at `at`; returns the offset after it, or -1 when the bytes end first. */
  function binaryRecord(view: DataView, at: number, end: number): number {
    const role = roles[current]!;
    let offset = at;
    let length = 0;
    const properties = role.element.properties;
    for (let index = 0; index < properties.length; index++) {
      const property = properties[index]!;
      if (property.count === undefined) {
        const size = SIZES[property.type];
        if (offset + size > end) return -1;
        if (role.kind === "vertex") values[index] = readScalar(view, offset, property.type, little);
        offset += size;
        continue;
      }
      const countSize = SIZES[property.count];
      if (offset + countSize > end) return -1;
      const count = readScalar(view, offset, property.count, little);
      offset += countSize;
      if (count < 0 || count > MAX_POLYGON) {
        failure = "not_stl";
        return end;
      }
      const size = SIZES[property.type];
      if (offset + count * size > end) return -1;
      if (index === role.list) {
        if (indices.length < count) indices = new Float64Array(count);
        for (let item = 0; item < count; item++) indices[item] = readScalar(view, offset + item * size, property.type, little);
        length = count;
      }
      offset += count * size;
    }
    vertexOrFace(role, length);
    return offset;
  }

  function binaryBody(chunk: Uint8Array): void {
    let data = chunk;
    if (pending.length > 0) {
      data = new Uint8Array(pending.length + chunk.length);
      data.set(pending);
      data.set(chunk, pending.length);
    }
    const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
    let offset = 0;
    while (!done() && !failure) {
      const next = binaryRecord(view, offset, data.length);
      if (next < 0) break;
      offset = next;
      advance();
    }
    pending = done() || failure ? new Uint8Array(0) : data.slice(offset);
  }

  // ASCII body: a record's numbers may run over lines; they are queued until the record is whole.
  let queue: string[] = [];
  const asciiLines = new Lines((line) => {
    if (failure || done()) return;
    const trimmed = line.trim();
    if (trimmed === "") return;
    for (const token of trimmed.split(/\s+/)) queue.push(token);
    let position = 0;
    while (!done() && !failure) {
      const next = asciiRecord(position);
      if (next < 0) break;
      position = next;
      advance();
    }
    queue = position >= queue.length ? [] : queue.slice(position);
  });

  function asciiRecord(at: number): number {
    const role = roles[current]!;
    let position = at;
    let length = 0;
    const properties = role.element.properties;
    for (let index = 0; index < properties.length; index++) {
      const property = properties[index]!;
      if (property.count === undefined) {
        if (position >= queue.length) return -1;
        if (role.kind === "vertex") values[index] = Math.fround(Number(queue[position]));
        position++;
        continue;
      }
      if (position >= queue.length) return -1;
      const count = Number(queue[position]);
      position++;
      if (!Number.isInteger(count) || count < 0 || count > MAX_POLYGON) {
        failure = "not_stl";
        return queue.length;
      }
      if (position + count > queue.length) return -1;
      if (index === role.list) {
        if (indices.length < count) indices = new Float64Array(count);
        for (let item = 0; item < count; item++) {
          const value = Number(queue[position + item]);
          if (!Number.isInteger(value)) {
            failure = "not_stl";
            return queue.length;
          }
          indices[item] = value;
        }
        length = count;
      }
      position += count;
    }
    vertexOrFace(role, length);
    return position;
  }

  function body(chunk: Uint8Array): void {
    if (chunk.length === 0 || done()) return;
    if (header!.format === "ascii") asciiLines.bytes(chunk);
    else binaryBody(chunk);
  }

  function readHeader(chunk: Uint8Array): void {
    headerText += headerDecoder.decode(chunk);
    if (!/^ply\s/.test(headerText.slice(0, 4)) && headerText.length >= 4) {
      failure = "not_stl";
      return;
    }
    const match = END_HEADER.exec(headerText);
    if (!match) {
      headerBytes += chunk.length;
      if (headerText.length > MAX_HEADER_BYTES) failure = "not_stl";
      return;
    }
    // latin1: one character per byte, so the body starts at the same offset in the bytes.
    const bodyStart = match.index + match[0].length;
    header = parsePlyHeader(headerText.slice(0, match.index + match[1]!.length));
    const consumedBefore = headerBytes;
    headerText = "";
    const parsed = header ? rolesOf(header) : null;
    if (!header || !parsed) {
      failure = "not_stl";
      return;
    }
    roles = parsed;
    little = header.format !== "binary_big_endian";
    current = 0;
    record = 0;
    while (current < roles.length && roles[current]!.element.count === 0) current++;
    body(chunk.subarray(bodyStart - consumedBefore));
  }

  return {
    update(chunk) {
      if (finished) throw new Error("PLY reader already finished");
      if (chunk.length === 0 || failure) return;
      empty = false;
      if (!header) readHeader(chunk);
      else body(chunk);
    },
    finish(): StlVerdict {
      finished = true;
      if (header?.format === "ascii") asciiLines.finish();
      if (empty) return { ok: false, reason: "empty" };
      if (asciiLines.failed) return { ok: false, reason: "not_stl" };
      if (failure) return { ok: false, reason: failure };
      if (!header) return { ok: false, reason: "not_stl" };
      const count = (name: string) => header!.elements.find((element) => element.name === name)?.count ?? 0;
      const vertexCount = count("vertex");
      const faceCount = count("face");
      if (vertexCount === 0 && faceCount === 0) return { ok: false, reason: "empty" };
      if (faceCount === 0) return { ok: false, reason: "points_only" };
      if (!done()) return { ok: false, reason: "truncated" };
      if (fan.triangles === 0) return { ok: false, reason: "not_stl" };
      return { ok: true, format: header.format === "ascii" ? "ascii" : "binary", triangles: fan.triangles };
    },
  };
}

/** The reader of a PLY or OBJ file. */
export function createMeshReader(format: "ply" | "obj", sink: TriangleSink): MeshReader {
  return format === "ply" ? createPlyReader(sink) : createObjReader(sink);
}
