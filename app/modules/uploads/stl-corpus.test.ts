import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { previewGeometry } from "~/components/wizard/stl-geometry";
import { type Box, boxOf, readWithThree } from "../../../tests/fixtures/stl/outside-readers.mts";
import { LARGE_MODEL_SOURCE, largeModelBox, largeModelBuffer, largeModelChunks, largeModelTriangles } from "../../../tests/fixtures/stl/large-model.mts";
import { createStlScanner } from "./scan";
import { precheckStl } from "./stl";

/**
 * Our reader against files other software wrote (tests/fixtures/stl, README there): for every file
 * the verdict, triangle count and box that readers this project did not write give (manifest.json),
 * and three.js's STLLoader run again now, on the same bytes.
 */

const dir = path.resolve(import.meta.dirname, "../../../tests/fixtures/stl");
interface Expected {
  verdict: "accept" | "refuse";
  triangles?: number;
  bbox?: Box | null;
  warnings?: string[];
}
const manifest = JSON.parse(fs.readFileSync(path.join(dir, "manifest.json"), "utf8")) as {
  files: Record<string, { bytes: number; readers: { three: unknown }; expected: Expected }>;
};
const corpus = Object.entries(manifest.files).map(([name, entry]) => ({ name, entry, bytes: new Uint8Array(fs.readFileSync(path.join(dir, name))) }));

function scan(bytes: Uint8Array, chunkSize = bytes.length || 1) {
  const scanner = createStlScanner();
  for (let start = 0; start < bytes.length; start += chunkSize) scanner.update(bytes.subarray(start, start + chunkSize));
  return scanner.finish();
}

/** Equal as float32 values read by different programs (ADMesh prints six decimals, hence the slack). */
function expectSameBox(actual: Box | null, expected: Box | null | undefined) {
  expect(actual === null).toBe(expected === null || expected === undefined);
  if (!actual || !expected) return;
  for (const side of ["min", "max"] as const) {
    for (let axis = 0; axis < 3; axis++) expect(actual[side][axis]).toBeCloseTo(expected[side][axis]!, 4);
  }
}

describe("the STL corpus written by other software", () => {
  it("holds every file the manifest names, and nothing else", () => {
    const onDisk = fs.readdirSync(dir).filter((name) => name.toLowerCase().endsWith(".stl")).sort();
    expect(onDisk).toEqual(Object.keys(manifest.files).sort());
    for (const { name, entry, bytes } of corpus) expect([name, bytes.length]).toEqual([name, entry.bytes]);
  });

  it("has both verdicts and the oddities the issue lists", () => {
    const verdicts = corpus.map(({ entry }) => entry.expected.verdict);
    expect(verdicts.filter((verdict) => verdict === "accept").length).toBeGreaterThan(15);
    expect(verdicts.filter((verdict) => verdict === "refuse").length).toBeGreaterThan(4);
  });

  it.each(corpus.map((file) => [file.name, file] as const))("%s: three.js reads it now as the manifest recorded", (_, { entry, bytes }) => {
    expect(JSON.parse(JSON.stringify(readWithThree(bytes)))).toEqual(entry.readers.three);
  });

  it.each(corpus.map((file) => [file.name, file] as const))("%s: our reader gives the manifest's verdict, triangles and box", (_, { entry, bytes }) => {
    const { expected } = entry;
    for (const chunkSize of [bytes.length || 1, 4096, 50, 7]) {
      const { verdict, scan: summary, bounds } = scan(bytes, chunkSize);
      expect(verdict.ok ? "accept" : "refuse").toBe(expected.verdict);
      if (!verdict.ok) continue;
      expect(verdict.triangles).toBe(expected.triangles);
      expect(summary!.triangles).toBe(expected.triangles);
      expectSameBox(bounds, expected.bbox);
      for (const warning of expected.warnings ?? []) expect(summary!.warnings).toContain(warning);
      if (!expected.warnings?.includes("extra_bytes")) expect(summary!.warnings).not.toContain("extra_bytes");
    }
  });

  it.each(corpus.map((file) => [file.name, file] as const))("%s: the 3D preview shows what the upload accepted", (_, { entry, bytes }) => {
    const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
    if (entry.expected.verdict === "refuse") {
      expect(() => previewGeometry(buffer)).toThrow();
      return;
    }
    const positions = previewGeometry(buffer).getAttribute("position");
    expect(positions.count / 3).toBe(entry.expected.triangles);
    expectSameBox(boxOf(positions.array), entry.expected.bbox);
  });

  it("lets the browser send every accepted file, and names a copy cut short before sending it", () => {
    for (const { name, entry, bytes } of corpus) {
      if (bytes.length === 0) continue;
      const early = precheckStl(bytes.subarray(0, 84), bytes.length);
      if (entry.expected.verdict === "accept") expect([name, early]).toEqual([name, "ok"]);
      const { verdict } = scan(bytes);
      if (!verdict.ok && verdict.reason === "truncated") expect([name, early]).toEqual([name, "truncated"]);
    }
  });

  it("reads a large real-like model (the gear wheel 200 times, 24 MB) as three.js does", () => {
    const copies = 200;
    const { verdict, bounds } = scan(new Uint8Array(largeModelBuffer(copies)), 64 * 1024);
    const three = readWithThree(new Uint8Array(largeModelBuffer(copies)));
    const sourceBox = manifest.files[LARGE_MODEL_SOURCE]!.expected.bbox!;
    expect(verdict).toEqual({ ok: true, format: "binary", triangles: largeModelTriangles(copies) });
    expect(three).toMatchObject({ ok: true, triangles: largeModelTriangles(copies) });
    expectSameBox(bounds, largeModelBox(sourceBox, copies));
    expectSameBox(three.ok ? three.bbox : null, largeModelBox(sourceBox, copies));
    expect([...largeModelChunks(2)].reduce((sum, chunk) => sum + chunk.length, 0)).toBe(84 + 50 * largeModelTriangles(2));
  });
});
