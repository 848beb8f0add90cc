import { Fan, Lines, MAX_POLYGON, type MeshReader, type TriangleSink, Vertices } from "./mesh-parts";
import type { StlVerdict } from "./stl";

/** The vertex number of a face corner (`12`, `-3`, `12/5`, `12//7`, `12/5/7`), NaN when it is not one; read by hand, as it runs for every corner. */
function vertexNumber(corner: string): number {
  let at = 0;
  let sign = 1;
  if (corner.charCodeAt(0) === 45) {
    sign = -1;
    at = 1;
  } else if (corner.charCodeAt(0) === 43) at = 1;
  const start = at;
  let value = 0;
  for (; at < corner.length; at++) {
    const code = corner.charCodeAt(at);
    if (code === 47) break; // "/"
    if (code < 48 || code > 57) return NaN;
    value = value * 10 + (code - 48);
  }
  return at === start ? NaN : sign * value;
}

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
      const number = vertexNumber(part);
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

