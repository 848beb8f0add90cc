/**
 * How much smaller the packed form of a binary STL is than gzip members (ADR 045): for every file of
 * the corpus (tests/fixtures/stl) and for a scan-shaped model, the member stream of a packed upload
 * (each 5 MiB chunk as the smaller of its packed and gzip members, as the page sends it) and of a
 * gzip upload (ADR 033), both ÷ the file's size; and how fast this machine packs. Takes seconds.
 *
 *   node --import tsx bench/stl-pack.mts
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { largeModelBuffer } from "../tests/fixtures/stl/large-model.mts";
import { cadLikeStl, scanLikeStl } from "../tests/support/stl-models";
import { bytesReader, compressedSource } from "../app/modules/uploads/gzip-members";
import { packingCompressor } from "../app/modules/uploads/stl-pack";
import { type Figure, printResult } from "./lib/result";

const dir = path.resolve(import.meta.dirname, "../tests/fixtures/stl");

async function streamBytes(file: Uint8Array, packed: boolean): Promise<{ bytes: number; seconds: number }> {
  const started = performance.now();
  const source = compressedSource(bytesReader(file), packed ? { compress: packingCompressor(bytesReader(file)) } : {});
  let bytes = 0;
  for (let offset = 0; ; ) {
    const { value, done } = await source.slice(offset, offset + 5 * 1024 * 1024);
    bytes += value.length;
    offset += value.length;
    if (done) break;
  }
  return { bytes, seconds: (performance.now() - started) / 1000 };
}

const files: Array<[string, Uint8Array]> = [
  ["scan-shaped height field (1024 × 1023, 100 MiB)", scanLikeStl(1024, 1023, 2026)],
  ["scan-shaped height field (281 × 141)", scanLikeStl(281, 141, 3)],
  ["CAD-like: gear wheel copies, each turned (100 MiB)", cadLikeStl(100, fs.readFileSync(path.join(dir, "stl-models_gearwheel.bin.stl")))],
  ["gear wheel × 860, repeated as it is (100 MiB)", largeModelBuffer(860)],
  ...fs
    .readdirSync(dir)
    .filter((name) => name.endsWith(".stl") && fs.statSync(path.join(dir, name)).size > 0)
    .map((name): [string, Uint8Array] => [name, new Uint8Array(fs.readFileSync(path.join(dir, name)))]),
];

const rows: Array<Record<string, string | number>> = [];
const figures: Figure[] = [];
for (const [name, file] of files) {
  const gzip = await streamBytes(file, false);
  const packed = await streamBytes(file, true);
  const triangles = file.length >= 84 ? new DataView(file.buffer, file.byteOffset).getUint32(80, true) : 0;
  rows.push({
    file: name,
    bytes: file.length,
    triangles: 84 + 50 * triangles <= file.length ? triangles : "—",
    gzip: (gzip.bytes / file.length).toFixed(3),
    "packed + gzip": (packed.bytes / file.length).toFixed(3),
    "packing MB/s": file.length > 1e6 ? (file.length / 1e6 / packed.seconds).toFixed(0) : "",
  });
  if (name.includes("100 MiB")) {
    figures.push({ name: `${name}: packed ÷ file`, figure: (packed.bytes / file.length).toFixed(3), value: packed.bytes / file.length, target: `< gzip's ${(gzip.bytes / file.length).toFixed(3)}`, met: packed.bytes < gzip.bytes });
    figures.push({ name: `${name}: packed and gzip members made at`, figure: `${(file.length / 1e6 / packed.seconds).toFixed(0)} MB/s`, value: file.length / 1e6 / packed.seconds, target: "— (one core of this machine, Node)", met: null });
  }
}
console.table(rows);
printResult({ bench: "stl-pack", figures, loadavg: os.loadavg() });
