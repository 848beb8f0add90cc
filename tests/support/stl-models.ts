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

/**
 * A binary STL shaped like an intra-oral scan's export: a `columns` × `rows` height field over an
 * arch-sized area (0.05 mm steps), smooth relief plus measurement noise in full-precision floats,
 * triangles in scan order with their normals — so it compresses as real scans do (about half),
 * not as a file of repeated triangles does. The same seed gives the same bytes.
 */
export function scanLikeStl(columns: number, rows: number, seed = 1): Buffer {
  let state = seed >>> 0 || 1;
  const noise = () => {
    // xorshift32: deterministic, no library
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 4294967296 - 0.5;
  };
  const step = 0.05;
  const heights = new Float32Array((columns + 1) * (rows + 1));
  for (let j = 0; j <= rows; j++) {
    for (let i = 0; i <= columns; i++) {
      const x = i * step;
      const y = j * step;
      heights[j * (columns + 1) + i] = 8 + 3 * Math.sin(x / 4) * Math.cos(y / 5) + 0.8 * Math.sin(x * 1.7 + y) + noise() * 0.02;
    }
  }
  const triangles = columns * rows * 2;
  const bytes = Buffer.alloc(84 + 50 * triangles);
  bytes.write("scan export: height field, for tests", 0);
  bytes.writeUInt32LE(triangles, 80);
  let at = 84;
  const corner = (i: number, j: number): Point => [i * step, j * step, heights[j * (columns + 1) + i]!];
  const write = (a: Point, b: Point, c: Point) => {
    const u = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
    const v = [c[0] - a[0], c[1] - a[1], c[2] - a[2]];
    const n = [u[1]! * v[2]! - u[2]! * v[1]!, u[2]! * v[0]! - u[0]! * v[2]!, u[0]! * v[1]! - u[1]! * v[0]!];
    const length = Math.hypot(n[0]!, n[1]!, n[2]!) || 1;
    for (const value of [...n.map((component) => component / length), ...a, ...b, ...c]) {
      bytes.writeFloatLE(value, at);
      at += 4;
    }
    at += 2; // attribute byte count: 0
  };
  for (let j = 0; j < rows; j++) {
    for (let i = 0; i < columns; i++) {
      write(corner(i, j), corner(i + 1, j), corner(i + 1, j + 1));
      write(corner(i, j), corner(i + 1, j + 1), corner(i, j + 1));
    }
  }
  return bytes;
}

/**
 * A CAD-like model of about `mebibytes` MiB made from a real CAD export of the corpus (the gear
 * wheel, `stl-models`): copies of its triangles, each turned about z by its own angle and moved, so
 * every copy's floats are new (as in a larger CAD part), not the repeated bytes of
 * tests/fixtures/stl/large-model.mts that packing would find again and again.
 */
export function cadLikeStl(mebibytes: number, source: Buffer): Buffer {
  const records = source.subarray(84, 84 + 50 * source.readUInt32LE(80));
  const perCopy = records.length / 50;
  const triangles = Math.floor((mebibytes * 1024 * 1024 - 84) / 50);
  const bytes = Buffer.alloc(84 + 50 * triangles);
  bytes.write("CAD-like model: turned copies of a CAD export, for tests", 0);
  bytes.writeUInt32LE(triangles, 80);
  for (let t = 0; t < triangles; t++) {
    const copy = Math.floor(t / perCopy);
    const from = 50 * (t % perCopy);
    const to = 84 + 50 * t;
    const angle = copy * 0.3737;
    const cos = Math.cos(angle);
    const sin = Math.sin(angle);
    const shift = [copy * 41.3, (copy % 7) * 13.7, (copy % 3) * 5.1];
    for (let v = 0; v < 4; v++) {
      const x = records.readFloatLE(from + 12 * v);
      const y = records.readFloatLE(from + 12 * v + 4);
      const z = records.readFloatLE(from + 12 * v + 8);
      const moved = v === 0 ? [0, 0, 0] : shift;
      bytes.writeFloatLE(x * cos - y * sin + moved[0]!, to + 12 * v);
      bytes.writeFloatLE(x * sin + y * cos + moved[1]!, to + 12 * v + 4);
      bytes.writeFloatLE(z + moved[2]!, to + 12 * v + 8);
    }
    bytes.writeUInt16LE(records.readUInt16LE(from + 48), to + 48);
  }
  return bytes;
}
