import fs from "node:fs";
import path from "node:path";
import { expect, type Page, test } from "@playwright/test";
import { orderToCheckout, press, signInBackoffice } from "./journeys";
import { dataDir, e2eQuery, embedded, fixtureFile } from "./support";

/**
 * PLY and OBJ beside STL (ADR 102), with JavaScript on and off: on the aligners' step a point
 * cloud, an empty PLY and an OBJ with an index past its vertices are refused in the doctor's words
 * and nothing is stored; a binary PLY and an ASCII PLY written by Assimp (tests/fixtures/mesh) and
 * an OBJ of quads are accepted, shown with their size, and reach payment. Staff then send them
 * from the file-server queue, and what the factory's folder receives is a binary STL with the
 * source's triangles and box; staff download both the original and the STL.
 */

const corpus = path.resolve("tests/fixtures/mesh");
const corpusFile = (source: string, name: string) => fixtureFile(name, (file) => fs.copyFileSync(path.join(corpus, source), file));
const textFile = (name: string, text: string) => fixtureFile(name, (file) => fs.writeFileSync(file, text));

type Box = { min: number[]; max: number[] };
const manifest = JSON.parse(fs.readFileSync(path.join(corpus, "manifest.json"), "utf8")) as { files: Record<string, { expected: { triangles: number; bbox: Box } }> };

/** A plate of 3 × 2 quads, 30 × 20 mm, and a ridge: 12 vertices, 6 quads + 1 pentagon fanned into 15 triangles. */
const QUAD_OBJ = [
  "# written by hand: a plan exported as polygons",
  "mtllib plate.mtl",
  "o Plate",
  ...[0, 10, 20].flatMap((y) => [0, 10, 20, 30].map((x) => `v ${x} ${y === 20 ? 20 : y} 0`)),
  "g top",
  "usemtl gum",
  "f 1 2 6 5",
  "f 2/1 3/1 7/1 6/1",
  "f 3//1 4//1 8//1 7//1",
  "f 5 6 10 9",
  "f -6 -5 -1 -2",
  "f 7 8 12 11",
  "v 15 10 25",
  "f 1 4 13 12 9",
].join("\n");

const good = [
  { name: "mesh-aligner-upper-02.ply", file: () => corpusFile("assimp_gearwheel.bin.ply", "mesh-aligner-upper-02.ply"), triangles: manifest.files["assimp_gearwheel.bin.ply"]!.expected.triangles, bbox: manifest.files["assimp_gearwheel.bin.ply"]!.expected.bbox, size: "41,7 × 41,7 × 8 мм" },
  { name: "mesh-aligner-lower-02.ply", file: () => corpusFile("assimp_cube.ply", "mesh-aligner-lower-02.ply"), triangles: 12, bbox: manifest.files["assimp_cube.ply"]!.expected.bbox, size: "2 × 2 × 2 мм" },
  { name: "mesh-aligner-upper-03.obj", file: () => textFile("mesh-aligner-upper-03.obj", QUAD_OBJ), triangles: 15, bbox: { min: [0, 0, 0], max: [30, 20, 25] }, size: "30 × 20 × 25 мм" },
];

const bad = [
  { name: "mesh-cloud-upper-04.ply", text: "ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\nproperty float z\nend_header\n0 0 0\n1 0 0\n0 1 0\n", says: "в файле только точки — нет поверхности" },
  { name: "mesh-empty-upper-05.ply", text: "ply\nformat binary_little_endian 1.0\nelement vertex 0\nproperty float x\nproperty float y\nproperty float z\nelement face 0\nproperty list uchar int vertex_indices\nend_header\n", says: "файл пустой" },
  { name: "mesh-index-upper-06.obj", text: "v 0 0 0\nv 10 0 0\nv 0 10 0\nf 1 2 4\n", says: "файл повреждён: поверхность ссылается на точки, которых в файле нет" },
];

/** The triangle count and corner box of a binary STL. */
function readStl(bytes: Buffer): { triangles: number; bbox: Box; size: number } {
  const triangles = bytes.readUInt32LE(80);
  const min = [Infinity, Infinity, Infinity];
  const max = [-Infinity, -Infinity, -Infinity];
  for (let at = 84; at + 50 <= bytes.length; at += 50) {
    for (let corner = 0; corner < 3; corner++) {
      for (let axis = 0; axis < 3; axis++) {
        const value = bytes.readFloatLE(at + 12 + corner * 12 + axis * 4);
        min[axis] = Math.min(min[axis]!, value);
        max[axis] = Math.max(max[axis]!, value);
      }
    }
  }
  return { triangles, bbox: { min, max }, size: bytes.length };
}

function findUnder(dir: string, name: string): string | null {
  if (!fs.existsSync(dir)) return null;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      const found = findUnder(full, name);
      if (found) return found;
    } else if (entry.name === name) return full;
  }
  return null;
}

/** Stored objects of the order whose names start with one of the refused files' stems. */
function storedLike(stems: string[]): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    if (!fs.existsSync(dir)) return;
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) walk(path.join(dir, entry.name));
      else if (stems.some((stem) => entry.name.startsWith(stem))) found.push(entry.name);
    }
  };
  walk(path.join(dataDir, "storage"));
  return found;
}

async function onAlignerStep(page: Page) {
  // The refused ones: each in the doctor's words, none of them listed or stored.
  await page.setInputFiles("#field-files", bad.map(({ name, text }) => textFile(name, text)));
  await press(page, "Загрузить", 7);
  for (const { name, says } of bad) await expect(page.getByText(`Не удалось загрузить файл: ${name}. Ошибка: ${says}`)).toBeVisible();
  const recorded = await e2eQuery<{ count: number }>("select count(*)::int as count from ftp_uploads_queue where original_name = any($1)", [bad.map(({ name }) => name)]);
  expect(recorded[0]!.count).toBe(0);
  expect(storedLike(bad.map(({ name }) => name.slice(0, -4)))).toEqual([]);

  // The accepted ones, with the model's size.
  await page.setInputFiles("#field-files", good.map(({ file }) => file()));
  await press(page, "Загрузить", 7);
  await expect(page.getByText(`Загружено файлов: ${good.length}/${good.length}`)).toBeVisible();
  for (const { name, size } of good) {
    const item = page.locator("li").filter({ hasText: name }).last();
    await expect(item).toBeVisible();
    await expect(item).toContainText(`Размер модели: ${size}`);
  }
}

test("PLY and OBJ on the aligners' step: refused in the doctor's words, or accepted, paid, and sent to the factory as binary STL", async ({ page }) => {
  test.skip(embedded, "the queue is read in the PostgreSQL target's database");
  test.setTimeout(180_000);
  await orderToCheckout(page, { aligners: true, onStep: (step) => (step === 7 ? onAlignerStep(page) : Promise.resolve()) });
  await page.getByRole("button", { name: "Оплатить (тест)" }).click();
  await expect(page).toHaveURL(/\/payment\/success\?orderId=/);
  const orderId = new URL(page.url()).searchParams.get("orderId")!;

  // Each original is kept as sent; the queue hands the factory the STL beside it.
  const rows = await e2eQuery<{ original_name: string; file_path: string }>("select original_name, file_path from ftp_uploads_queue where order_id = $1 and original_name like 'mesh-%'", [orderId]);
  expect(rows.map((row) => row.original_name).sort()).toEqual(good.map(({ name }) => name).sort());
  for (const row of rows) expect(row.file_path).toMatch(/\.stl$/);

  await signInBackoffice(page);
  await page.goto("/backoffice/ftp");
  for (const { name, triangles, bbox } of good) {
    const row = page.locator('tbody tr:has(input[name="ids"])').filter({ hasText: name });
    await row.getByRole("button", { name: `Загрузить ${name} на FTP` }).click();
    await expect(page.getByRole("status").filter({ hasText: "Файл успешно отправлен на FTP" })).toBeVisible();
    // Sent: off the pending list (the previous file's notice may still be showing).
    await expect(row).toHaveCount(0);
    const sent = rows.find((entry) => entry.original_name === name)!;
    await expect.poll(() => findUnder(path.join(dataDir, "ftp"), path.posix.basename(sent.file_path)), { message: `${name} on the file server` }).not.toBeNull();
    const file = findUnder(path.join(dataDir, "ftp"), path.posix.basename(sent.file_path));
    const stl = readStl(fs.readFileSync(file!));
    expect(stl.size).toBe(84 + 50 * triangles);
    expect(stl.triangles).toBe(triangles);
    for (const side of ["min", "max"] as const) for (let axis = 0; axis < 3; axis++) expect(stl.bbox[side][axis]).toBeCloseTo(bbox[side][axis]!, 5);
  }

  // Staff download both: the original as the doctor sent it, under its name, and the STL beside it.
  await page.goto(`/backoffice/orders/${orderId}/files`);
  for (const { name, file, triangles } of good) {
    const item = page.locator("li").filter({ hasText: name });
    const original = await page.request.get((await item.getByRole("link", { name, exact: true }).getAttribute("href"))!);
    expect(Buffer.compare(await original.body(), fs.readFileSync(file()))).toBe(0);
    const stl = await page.request.get((await item.getByRole("link", { name: "STL", exact: true }).getAttribute("href"))!);
    expect(readStl(await stl.body()).triangles).toBe(triangles);
  }
});
