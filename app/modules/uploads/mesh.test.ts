import { describe, expect, it } from "vitest";
import { meshFormatOf } from "./mesh";
import { binaryStlBytes, binaryStlOf } from "./mesh-stl";
import { createMeshScanner, createStlScanner } from "./scan";

const text = (value: string) => new TextEncoder().encode(value);

function scan(format: "ply" | "obj", bytes: Uint8Array, chunkSize = bytes.length || 1) {
  const scanner = createMeshScanner(format);
  for (let start = 0; start < bytes.length; start += chunkSize) scanner.update(bytes.subarray(start, start + chunkSize));
  return scanner.finish();
}

async function toStl(format: "ply" | "obj", bytes: Uint8Array, triangles: number) {
  const parts: Uint8Array[] = [];
  async function* chunks() {
    yield bytes.subarray(0, 7);
    yield bytes.subarray(7);
  }
  for await (const part of binaryStlOf(chunks(), format, triangles)) parts.push(part);
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** A unit cube: 8 corners, 6 quads (a closed mesh, 12 triangles once fanned). */
const CUBE_VERTICES = [
  [0, 0, 0], [10, 0, 0], [10, 10, 0], [0, 10, 0],
  [0, 0, 10], [10, 0, 10], [10, 10, 10], [0, 10, 10.5],
];
const CUBE_QUADS = [
  [0, 3, 2, 1], [4, 5, 6, 7], [0, 1, 5, 4], [1, 2, 6, 5], [2, 3, 7, 6], [3, 0, 4, 7],
];

const asciiPly = (extra = "") =>
  text(
    [
      "ply", "format ascii 1.0", "comment written by hand", "element vertex 8", "property float x", "property float y", "property float z",
      "property uchar red", "property uchar green", "property uchar blue", "element face 6", "property list uchar int vertex_indices", "property float quality", extra + "end_header",
      ...CUBE_VERTICES.map((v) => `${v.join(" ")} 255 128 0`),
      ...CUBE_QUADS.map((f) => `4 ${f.join(" ")} 0.5`),
      "",
    ].join("\n"),
  );

function binaryPly(little: boolean): Uint8Array {
  const head = text(
    ["ply", `format binary_${little ? "little" : "big"}_endian 1.0`, "element vertex 8", "property float x", "property float y", "property float z", "property float nx", "element face 6", "property list uchar uint vertex_indices", "end_header", ""].join("\n"),
  );
  const body = new DataView(new ArrayBuffer(8 * 16 + 6 * (1 + 16)));
  let at = 0;
  for (const v of CUBE_VERTICES) {
    for (const value of [...v, 1]) {
      body.setFloat32(at, value, little);
      at += 4;
    }
  }
  for (const f of CUBE_QUADS) {
    body.setUint8(at++, 4);
    for (const index of f) {
      body.setUint32(at, index, little);
      at += 4;
    }
  }
  const out = new Uint8Array(head.length + body.byteLength);
  out.set(head);
  out.set(new Uint8Array(body.buffer), head.length);
  return out;
}

const obj = text(
  [
    "# cube", "mtllib cube.mtl", "o Cube", ...CUBE_VERTICES.map((v) => `v ${v.join(" ")} 0.5 0.5 0.5`), "vt 0 0", "vn 0 0 1", "g sides", "usemtl skin", "s 1",
    // positive, v/vt/vn, v//vn and negative indices
    "f 1 4 3 2", "f 5/1/1 6/1/1 7/1/1 8/1/1", "f 1//1 2//1 6//1 5//1", "f -7 -6 -2 -3", "f 3 4 8 7", "f 4 1 5 8",
  ].join("\r\n"),
);

describe("PLY and OBJ readers", () => {
  it("names the format by the extension", () => {
    expect([meshFormatOf("a.STL"), meshFormatOf("scan.Ply"), meshFormatOf("b.obj"), meshFormatOf("c.obj.zip")]).toEqual(["stl", "ply", "obj", null]);
  });

  it.each([
    ["ascii ply", "ply" as const, asciiPly(), "ascii"],
    ["binary little-endian ply", "ply" as const, binaryPly(true), "binary"],
    ["binary big-endian ply", "ply" as const, binaryPly(false), "binary"],
    ["obj with quads, groups and materials", "obj" as const, obj, "ascii"],
  ])("%s: fans the quads, ignores the extra properties, checks as STL", (_, format, bytes, kind) => {
    for (const chunk of [bytes.length, 1, 5]) {
      const { verdict, scan: summary, bounds } = scan(format, bytes, chunk);
      expect(verdict).toEqual({ ok: true, format: kind, triangles: 12 });
      expect(bounds).toEqual({ min: [0, 0, 0], max: [10, 10, 10.5] });
      expect(summary).toMatchObject({ source: format, boundaryEdges: 0, degenerate: 0, size: { x: 10, y: 10, z: 10.5 }, warnings: ["too_small"] });
    }
  });

  it("writes a binary STL with the source's triangles, read back by the STL reader", async () => {
    for (const [format, bytes] of [["ply", binaryPly(false)], ["ply", asciiPly()], ["obj", obj]] as const) {
      const stl = await toStl(format, bytes, 12);
      expect(stl.length).toBe(binaryStlBytes(12));
      const back = createStlScanner();
      back.update(stl);
      const result = back.finish();
      expect(result.verdict).toEqual({ ok: true, format: "binary", triangles: 12 });
      expect(result.bounds).toEqual({ min: [0, 0, 0], max: [10, 10, 10.5] });
      expect(result.scan?.boundaryEdges).toBe(0);
    }
  });

  it("fails the conversion when the source does not give the counted triangles", async () => {
    await expect(toStl("obj", obj, 13)).rejects.toThrow(/13/);
  });

  it.each([
    ["a point cloud (ply)", "ply" as const, "ply\nformat ascii 1.0\nelement vertex 2\nproperty float x\nproperty float y\nproperty float z\nend_header\n0 0 0\n1 1 1\n", "points_only"],
    ["a point cloud (obj)", "obj" as const, "v 0 0 0\nv 1 1 1\nv 2 2 2\n", "points_only"],
    ["an empty ply", "ply" as const, "ply\nformat binary_little_endian 1.0\nelement vertex 0\nproperty float x\nproperty float y\nproperty float z\nelement face 0\nproperty list uchar int vertex_indices\nend_header\n", "empty"],
    ["an empty obj", "obj" as const, "# nothing\no Empty\n", "empty"],
    ["no bytes", "ply" as const, "", "empty"],
    ["an index past the vertices (obj)", "obj" as const, "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 4\n", "bad_index"],
    ["a negative index before the first vertex (obj)", "obj" as const, "v 0 0 0\nf -1 -2 -3\n", "bad_index"],
    ["an index past the vertices (ply)", "ply" as const, "ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\nproperty float z\nelement face 1\nproperty list uchar int vertex_indices\nend_header\n0 0 0\n1 0 0\n0 1 0\n3 0 1 3\n", "bad_index"],
    ["a ply cut short", "ply" as const, "ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\nproperty float z\nelement face 2\nproperty list uchar int vertex_indices\nend_header\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n", "truncated"],
    ["a face of two corners", "obj" as const, "v 0 0 0\nv 1 0 0\nf 1 2\n", "not_stl"],
    ["text that is not obj", "obj" as const, "hello doctor\n", "not_stl"],
    ["an image renamed .ply", "ply" as const, "\u0089PNG\r\n\u001a\n", "not_stl"],
    ["a ply header with an unknown line", "ply" as const, "ply\nformat ascii 1.0\nelement vertex 1\nproperty float x\nbogus\nend_header\n", "not_stl"],
  ])("refuses %s", (_, format, source, reason) => {
    expect(scan(format, text(source)).verdict).toEqual({ ok: false, reason });
  });

  it("reads past a face's texture coordinates, other elements and names in UTF-8", () => {
    const ply = text(
      [
        "ply", "format ascii 1.0", "comment Экспорт Medit", "element vertex 3", "property double x", "property double y", "property double z", "property float nx",
        "element face 1", "property uchar flags", "property list uchar float texcoord", "property list uchar uint vertex_indices",
        "element material 1", "property uchar red", "end_header", "0 0 0 1", "30 0 0 1", "0 40 5 1", "7 6 0 0 1 0 0 1 3 0 1 2", "255", "",
      ].join("\n"),
    );
    expect(scan("ply", ply, 3).verdict).toEqual({ ok: true, format: "ascii", triangles: 1 });
    const obj = text("o Верхняя челюсть\ng Зубы\nv 0 0 0\nv 30 0 0\nv 0 40 5\nf 1/1/1 2/2/1 3/3/1\n");
    expect(scan("obj", obj, 2).verdict).toEqual({ ok: true, format: "ascii", triangles: 1 });
  });

  it("reads a binary ply cut short as truncated", () => {
    const bytes = binaryPly(true);
    expect(scan("ply", bytes.subarray(0, bytes.length - 3)).verdict).toEqual({ ok: false, reason: "truncated" });
  });
});
