import v8 from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { binaryStlChunks } from "./stl-fixtures";
import { ARCH_MAX_MM, createStlScanner, type ScanSummary } from "./scan";

type Point = [number, number, number];
type Triangle = [Point, Point, Point];

/** The 12 triangles of a closed box from the origin to (x, y, z), outward-facing. */
function box(x: number, y: number, z: number): Triangle[] {
  const p = (i: number): Point => [i & 1 ? x : 0, i & 2 ? y : 0, i & 4 ? z : 0];
  const quads = [
    [0, 2, 3, 1], // bottom
    [4, 5, 7, 6], // top
    [0, 1, 5, 4], // front
    [2, 6, 7, 3], // back
    [0, 4, 6, 2], // left
    [1, 3, 7, 5], // right
  ];
  return quads.flatMap(([a, b, c, d]) => [
    [p(a), p(b), p(c)],
    [p(a), p(c), p(d)],
  ]);
}

function binary(triangles: Triangle[]): Uint8Array {
  const bytes = new Uint8Array(84 + 50 * triangles.length);
  const view = new DataView(bytes.buffer);
  bytes.set(new TextEncoder().encode("solid but binary"), 0);
  view.setUint32(80, triangles.length, true);
  triangles.forEach((triangle, index) => {
    triangle.flat().forEach((value, position) => view.setFloat32(84 + 50 * index + 12 + position * 4, value, true));
  });
  return bytes;
}

function ascii(triangles: Triangle[]): Uint8Array {
  const lines = ["solid mesh"];
  for (const triangle of triangles) {
    lines.push("  facet normal 0 0 0", "    outer loop", ...triangle.map((corner) => `      vertex ${corner.map((value) => value.toExponential(6)).join(" ")}`), "    endloop", "  endfacet");
  }
  lines.push("endsolid mesh", "");
  return new TextEncoder().encode(lines.join("\r\n"));
}

function scan(bytes: Uint8Array, chunkSize = bytes.length): ScanSummary | null {
  const scanner = createStlScanner();
  for (let start = 0; start < bytes.length; start += chunkSize) scanner.update(bytes.subarray(start, start + chunkSize));
  return scanner.finish().scan;
}

describe("STL scan checks", () => {
  it.each([
    ["binary", binary],
    ["ascii", ascii],
  ] as const)("finds nothing wrong with a closed %s box the size of a dental arch", (format, encode) => {
    const result = scan(encode(box(62.5, 48, 21.3)));
    expect(result).toEqual({ format, triangles: 12, size: { x: 62.5, y: 48, z: 21.3 }, degenerate: 0, boundaryEdges: 0, badTriangles: 0, extraBytes: 0, warnings: [] });
  });

  it("reads the same whatever the chunk boundaries", () => {
    for (const encode of [binary, ascii]) {
      const bytes = encode([...box(60, 50, 20).slice(2), [[0, 0, 0], [1, 1, 1], [2, 2, 2]]]);
      const whole = scan(bytes);
      for (const size of [1, 7, 49, 50, 51, 83, 84, 85, 333]) expect(scan(bytes, size)).toEqual(whole);
    }
  });

  it("reports an open mesh with the number of its border edges", () => {
    const withoutTop = box(60, 50, 20).filter((_, index) => index !== 2 && index !== 3);
    const result = scan(binary(withoutTop))!;
    expect(result.boundaryEdges).toBe(4);
    expect(result.warnings).toEqual(["open_mesh"]);
    expect(scan(ascii(withoutTop))!.boundaryEdges).toBe(4);
  });

  it("counts zero-area triangles: a repeated corner and three corners on a line", () => {
    const mesh: Triangle[] = [
      ...box(60, 50, 20),
      [[1, 1, 1], [1, 1, 1], [5, 5, 5]],
      [[0, 0, 0], [10, 10, 10], [20, 20, 20]],
      [[0, 0, 0], [10, 10, 10], [20, 20, 20]],
    ];
    const result = scan(binary(mesh))!;
    expect(result.degenerate).toBe(3);
    // Each degenerate triangle uses its edges twice (the pair, and A–B–A), so the mesh stays closed.
    expect(result.warnings).toEqual(["degenerate"]);
  });

  it("warns about a model whose size suggests other units than millimetres", () => {
    expect(scan(binary(box(6.2, 4.8, 2.1)))!.warnings).toEqual(["too_small"]); // centimetres
    expect(scan(binary(box(2.4, 1.9, 0.8)))!.warnings).toEqual(["too_small"]); // inches
    expect(scan(ascii(box(62_000, 48_000, 21_000)))!.warnings).toEqual(["too_large"]); // micrometres
    expect(scan(binary(box(ARCH_MAX_MM, 50, 20)))!.warnings).toEqual([]);
  });

  it("skips triangles with corners that are not numbers and says so", () => {
    const bytes = binary([...box(60, 50, 20), [[0, 0, 0], [1, 0, 0], [0, 1, 0]]]);
    new DataView(bytes.buffer).setFloat32(84 + 50 * 12 + 12, Number.NaN, true);
    const result = scan(bytes)!;
    expect(result.badTriangles).toBe(1);
    expect(result.size).toEqual({ x: 60, y: 50, z: 20 });
    expect(result.warnings).toEqual(["bad_coordinates"]);
  });

  it("gives no scan for a file the content check refuses", () => {
    const scanner = createStlScanner();
    scanner.update(new TextEncoder().encode("just some notes\n"));
    expect(scanner.finish()).toEqual({ verdict: { ok: false, reason: "not_stl" }, scan: null, bounds: null });
  });

  it("reads a binary file with bytes after its counted triangles by its header's count, and says so", () => {
    const model = binary(box(60, 50, 20));
    for (const extra of [new Uint8Array([13, 10]), binary(box(600, 500, 200)).subarray(84, 84 + 100)]) {
      const bytes = new Uint8Array([...model, ...extra]);
      for (const size of [bytes.length, 7, 50]) {
        const scanner = createStlScanner();
        for (let start = 0; start < bytes.length; start += size) scanner.update(bytes.subarray(start, start + size));
        const { verdict, scan: result, bounds } = scanner.finish();
        expect(verdict).toEqual({ ok: true, format: "binary", triangles: 12, extraBytes: extra.length });
        expect(result).toMatchObject({ triangles: 12, size: { x: 60, y: 50, z: 20 }, extraBytes: extra.length, warnings: ["extra_bytes"] });
        expect(bounds).toEqual({ min: [0, 0, 0], max: [60, 50, 20] });
      }
    }
  });

  it("refuses a binary file cut short as truncated, and bytes that only look like a header as not STL", () => {
    const model = binary(box(60, 50, 20));
    const cut = createStlScanner();
    cut.update(model.subarray(0, 84 + 50 * 5 + 13));
    expect(cut.finish().verdict).toEqual({ ok: false, reason: "truncated" });
    // A header count of 1 before bytes whose "corners" reach 1e30: no model, whatever follows.
    const junk = new Uint8Array(84 + 50 * 3);
    const view = new DataView(junk.buffer);
    view.setUint32(80, 1, true);
    for (let at = 84; at + 4 <= junk.length; at += 4) view.setFloat32(at, 1e30, true);
    const scanner = createStlScanner();
    scanner.update(junk);
    expect(scanner.finish().verdict).toEqual({ ok: false, reason: "not_stl" });
  });

  it("refuses a text whose facets do not have three corners each", () => {
    const text = new TextDecoder().decode(ascii(box(60, 50, 20))).replace(/(\r\n\s*vertex [^\r]*)(\r\n\s*endloop)/, "$2");
    const scanner = createStlScanner();
    scanner.update(new TextEncoder().encode(text));
    expect(scanner.finish().verdict).toEqual({ ok: false, reason: "not_stl" });
  });

  it("keeps memory flat while scanning 60 MB", async () => {
    // Collected before each reading, so what is measured is what the scanner keeps, not garbage
    // that happens to wait for the next collection.
    v8.setFlagsFromString("--expose-gc");
    const gc = runInNewContext("gc") as () => void;
    const scanner = createStlScanner();
    const triangles = 1_200_000; // 60,000,084 bytes
    let peak = 0;
    const used = () => {
      gc();
      return process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers;
    };
    const before = used();
    let chunks = 0;
    for await (const chunk of binaryStlChunks(triangles)) {
      scanner.update(chunk);
      if (++chunks % 10 === 0) peak = Math.max(peak, used() - before);
    }
    const { verdict, scan: result } = scanner.finish();
    expect(verdict).toEqual({ ok: true, format: "binary", triangles });
    expect(result!.triangles).toBe(triangles);
    // The parity table (256 KiB) and a chunk or two; never the file (keeping it measures 60 MB).
    // The figure also counts what other tests in this process hold (up to 10 MB seen in CI).
    expect(peak).toBeLessThan(24 * 1024 * 1024);
  }, 60_000);
});
