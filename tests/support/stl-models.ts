/**
 * STL models for upload tests: Buffers ready for fetch bodies, tus-js-client and Playwright's
 * setInputFiles.
 */

/** A binary STL of `triangles` zeroed facets: passes the content check (84 + 50 × n bytes). */
export function binaryStl(triangles: number): Buffer {
  const bytes = Buffer.alloc(84 + 50 * triangles);
  bytes.write("binary stl for tests", 0);
  bytes.writeUInt32LE(triangles, 80);
  return bytes;
}

type Point = [number, number, number];

/** A closed box the size of a dental arch model (mm), 12 triangles: the scan finds nothing wrong. */
export function archStl(x = 62, y = 48, z = 22): Buffer {
  const p = (i: number): Point => [i & 1 ? x : 0, i & 2 ? y : 0, i & 4 ? z : 0];
  const quads = [
    [0, 2, 3, 1],
    [4, 5, 7, 6],
    [0, 1, 5, 4],
    [2, 6, 7, 3],
    [0, 4, 6, 2],
    [1, 3, 7, 5],
  ];
  const triangles = quads.flatMap(([a, b, c, d]) => [
    [p(a!), p(b!), p(c!)],
    [p(a!), p(c!), p(d!)],
  ]);
  const bytes = binaryStl(triangles.length);
  triangles.forEach((triangle, index) => triangle.flat().forEach((value, position) => bytes.writeFloatLE(value, 84 + 50 * index + 12 + position * 4)));
  return bytes;
}

/** A binary STL of exactly about `mebibytes` MiB with one open, unit-sized triangle repeated (scan warnings). */
export function largeStl(mebibytes: number): Buffer {
  return binaryStl(Math.floor((mebibytes * 1024 * 1024 - 84) / 50));
}
