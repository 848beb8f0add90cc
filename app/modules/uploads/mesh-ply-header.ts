/** A PLY header (mesh-ply.ts, ADR 102): its elements and properties, and what the reader takes from each. */

export type Scalar = "int8" | "uint8" | "int16" | "uint16" | "int32" | "uint32" | "float32" | "float64";

const SCALARS: Record<string, Scalar> = {
  char: "int8", int8: "int8", uchar: "uint8", uint8: "uint8", short: "int16", int16: "int16", ushort: "uint16", uint16: "uint16",
  int: "int32", int32: "int32", uint: "uint32", uint32: "uint32", float: "float32", float32: "float32", double: "float64", float64: "float64",
};
export const SIZES: Record<Scalar, number> = { int8: 1, uint8: 1, int16: 2, uint16: 2, int32: 4, uint32: 4, float32: 4, float64: 8 };
const INTEGERS = new Set<Scalar>(["int8", "uint8", "int16", "uint16", "int32", "uint32"]);

interface PlyProperty {
  name: string;
  type: Scalar;
  /** The count's type of a list property. */
  count?: Scalar;
}

export interface PlyElement {
  name: string;
  count: number;
  properties: PlyProperty[];
}

export interface PlyHeader {
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

export function readScalar(view: DataView, at: number, type: Scalar, little: boolean): number {
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
export interface ElementRole {
  element: PlyElement;
  kind: "vertex" | "face" | "other";
  /** Property positions of x, y, z (vertex) or of the index list (face). */
  x: number;
  y: number;
  z: number;
  list: number;
}

export function rolesOf(header: PlyHeader): ElementRole[] | null {
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

