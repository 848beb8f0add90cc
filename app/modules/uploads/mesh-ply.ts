import { Fan, Lines, MAX_HEADER_BYTES, MAX_POLYGON, type MeshReader, type TriangleSink, Vertices } from "./mesh-parts";
import { type ElementRole, parsePlyHeader, type PlyHeader, readScalar, rolesOf, SIZES } from "./mesh-ply-header";
import type { StlVerdict } from "./stl";

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

