import type { MeshReader, TriangleSink } from "./mesh-parts";
import { createObjReader } from "./mesh-obj";
import { createPlyReader } from "./mesh-ply";
import type { StlVerdict } from "./stl";

/**
 * Streaming readers of the two other mesh formats doctors' software exports beside STL (ADR 102):
 * PLY (ASCII, binary little- and big-endian; mesh-ply.ts) and Wavefront OBJ (mesh-obj.ts). Each reads a file chunk by chunk
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

export type { MeshReader, TriangleSink } from "./mesh-parts";

/** The format a file's name says (its extension, in any case), or null for one the wizard does not take. */
export function meshFormatOf(name: string): MeshFormat | null {
  const match = /\.(stl|ply|obj)$/i.exec(name);
  return match ? (match[1]!.toLowerCase() as MeshFormat) : null;
}

/** The refusal a doctor reads: a PLY or OBJ that is not one is "not a mesh", not "not an STL". */
export function refusalOf(format: MeshFormat, reason: Extract<StlVerdict, { ok: false }>["reason"]): Extract<StlVerdict, { ok: false }>["reason"] | "not_mesh" {
  return reason === "not_stl" && format !== "stl" ? "not_mesh" : reason;
}

/** The reader of a PLY or OBJ file. */
export function createMeshReader(format: "ply" | "obj", sink: TriangleSink): MeshReader {
  return format === "ply" ? createPlyReader(sink) : createObjReader(sink);
}
