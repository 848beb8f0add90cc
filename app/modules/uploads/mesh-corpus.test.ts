import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { Box } from "../../../tests/fixtures/stl/outside-readers.mts";
import { readWithThree } from "../../../tests/fixtures/mesh/outside-readers.mts";
import { meshFormatOf } from "./mesh";
import { binaryStlOf } from "./mesh-stl";
import { createMeshScanner, createStlScanner } from "./scan";

/**
 * Our PLY and OBJ readers against files other software wrote (tests/fixtures/mesh, README there):
 * for every file the triangles and box three.js's loaders give (manifest.json, and three.js run
 * again now), and the binary STL made of it read back with the same triangles and box.
 */

const dir = path.resolve(import.meta.dirname, "../../../tests/fixtures/mesh");
interface Entry {
  bytes: number;
  source: string;
  licence: string;
  three: { triangles: number; bbox: Box | null };
  expected: { verdict: "accept"; triangles: number; bbox: Box };
}
const manifest = JSON.parse(fs.readFileSync(path.join(dir, "manifest.json"), "utf8")) as { files: Record<string, Entry> };
const corpus = Object.entries(manifest.files).map(([name, entry]) => ({ name, entry, format: meshFormatOf(name) as "ply" | "obj", bytes: new Uint8Array(fs.readFileSync(path.join(dir, name))) }));

function expectSameBox(actual: Box | null, expected: Box) {
  expect(actual).not.toBeNull();
  for (const side of ["min", "max"] as const) for (let axis = 0; axis < 3; axis++) expect(actual![side][axis]).toBeCloseTo(expected[side][axis], 5);
}

describe("the PLY and OBJ corpus written by other software", () => {
  it("holds every file the manifest names, each with its source and licence, and nothing else", () => {
    const onDisk = fs.readdirSync(dir).filter((name) => /\.(ply|obj)$/.test(name)).sort();
    expect(onDisk).toEqual(Object.keys(manifest.files).sort());
    for (const { name, entry, bytes } of corpus) {
      expect([name, bytes.length]).toEqual([name, entry.bytes]);
      expect(entry.source).not.toBe("");
      expect(entry.licence).not.toBe("");
    }
    expect(new Set(corpus.map(({ name }) => name.split(".").pop()))).toEqual(new Set(["ply", "obj"]));
  });

  it.each(corpus.map((file) => [file.name, file] as const))("%s: three.js reads it now as the manifest recorded", (_, { name, entry, bytes }) => {
    expect(JSON.parse(JSON.stringify(readWithThree(name, bytes)))).toEqual(entry.three);
  });

  it.each(corpus.map((file) => [file.name, file] as const))("%s: our reader gives the manifest's triangles and box, whatever the chunks", (_, { entry, format, bytes }) => {
    for (const size of [bytes.length, 4096, 97]) {
      const scanner = createMeshScanner(format);
      for (let start = 0; start < bytes.length; start += size) scanner.update(bytes.subarray(start, start + size));
      const { verdict, bounds } = scanner.finish();
      expect(verdict).toMatchObject({ ok: true, triangles: entry.expected.triangles });
      expectSameBox(bounds, entry.expected.bbox);
    }
  });

  it.each(corpus.map((file) => [file.name, file] as const))("%s: its binary STL has the same triangles and box", async (_, { entry, format, bytes }) => {
    async function* source() {
      yield bytes;
    }
    const back = createStlScanner();
    for await (const part of binaryStlOf(source(), format, entry.expected.triangles)) back.update(part);
    const { verdict, bounds } = back.finish();
    expect(verdict).toEqual({ ok: true, format: "binary", triangles: entry.expected.triangles });
    expectSameBox(bounds, entry.expected.bbox);
  });
});
