import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { expect, type Page, test } from "@playwright/test";
import { atStep, press } from "./journeys";
import { archStl, binaryStl, scanLikeStl } from "../support/stl-models";
import { startTcpProxy, type TcpProxy } from "../support/tcp-proxy";
import { fixtureFile } from "./support";

/**
 * Uploads on a slow clinic link (issue 4). With JavaScript: a 12 MiB model through the test TCP
 * proxy (throttled, so it takes seconds), the connection cut mid-way and the upload finished from
 * the stored offset; a reload mid-upload and the same file chosen again; the progress display.
 * With and without JavaScript: scan results per file, the another-device link. The 3D preview
 * exists only with JavaScript. Chromium compresses the file on the way (ADR 033); the first two
 * journeys run as a browser without CompressionStream does, sending the file as it is.
 */

const MiB = 1024 * 1024;
const CHUNK = 5 * MiB;
const appPort = Number(process.env.E2E_PORT ?? (process.env.E2E_TARGET === "embedded" ? 3220 : 3210));

/** A model on disk (a stable modification time, so the browser's fingerprint of it is stable too). */
function fixture(name: string, content: () => Buffer): string {
  return fixtureFile(name, (file) => fs.writeFileSync(file, content()));
}

const bigModel = () => fixture("clinic-12mib.stl", () => binaryStl(Math.floor((12 * MiB - 84) / 50)));
/** 12.6 MB shaped like a scan's export: compresses to about half, as real scans do. */
const scanModel = () => fixture("scan-12mb.stl", () => scanLikeStl(360, 350, 21));
const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

/** A fresh order at the matrix upload (step 5) with one patient. */
async function toMatrixStep(page: Page, origin: string) {
  await page.goto(`${origin}/order`);
  await atStep(page, 1);
  await press(page, "Далее →", 2);
  await page.getByLabel("E-mail").fill(`uploads-${Date.now()}-${Math.random().toString(36).slice(2, 6)}@clinic.ru`);
  await page.getByLabel("Телефон").fill("+7 900 123-45-67");
  await press(page, "Далее →", 3);
  await page.getByLabel("ФИО получателя").fill("Иванова Анна Сергеевна");
  await page.getByLabel("Адрес доставки").fill("Москва, ул. Тверская, 1");
  await page.getByRole("checkbox").check();
  await press(page, "Далее →", 4);
  await page.getByLabel("Имя пациента").fill("Смирнова Е.");
  await press(page, "Добавить пациента", 4);
  await press(page, "Далее →", 5);
}

/** The order's queue entries, asked the way the page asks (so it works on PGlite too). */
async function queueOf(page: Page): Promise<Record<string, string>> {
  const orderId = await page.locator('input[name="orderId"]').inputValue();
  return page.evaluate(async (id) => ((await (await fetch(`/uploads/status?order=${id}`)).json()) as { files: Record<string, string> }).files, orderId);
}

/**
 * Each test of the describe gets a fresh TCP proxy in front of the app (the slow, cuttable link);
 * `compress: false` makes the page a browser without CompressionStream; these journeys also run as
 * a browser without Web Workers, which sends gzip members and never packs (ADR 045: packed-uploads.spec.ts).
 */
function slowLink(options: { compress: boolean }) {
  const link = { proxy: null as unknown as TcpProxy, origin: "" };
  test.beforeEach(async ({ javaScriptEnabled, page }) => {
    test.skip(!javaScriptEnabled, "resumable uploads need JavaScript; without it the step is the plain form (wizard.spec.ts)");
    link.proxy = await startTcpProxy({ target: { host: "127.0.0.1", port: appPort } });
    link.origin = `http://127.0.0.1:${link.proxy.port}`;
    if (!options.compress) await page.addInitScript(() => Reflect.deleteProperty(globalThis, "CompressionStream"));
    await page.addInitScript(() => Reflect.deleteProperty(globalThis, "Worker"));
  });
  test.afterEach(async () => {
    await link.proxy?.stop();
  });
  return link;
}

/**
 * Chooses `file`, reloads the page once 4 MiB went over the link (saying yes to the leave prompt),
 * sees the interrupted upload named, chooses the file again and waits for it to be recorded.
 * Answers the bytes the link carried in all.
 */
async function reloadMidUpload(page: Page, proxy: TcpProxy, file: string, bytesPerSecond: number): Promise<number> {
  proxy.setLimits({ bytesPerSecond, latencyMs: 40 });
  const before = proxy.stats().upstreamBytes;
  await page.setInputFiles("#field-files", file);
  await expect.poll(() => proxy.stats().upstreamBytes - before, { timeout: 60_000 }).toBeGreaterThan(4 * MiB);
  page.once("dialog", (dialog) => void dialog.accept());
  await page.reload();
  await atStep(page, 5);
  await expect(page.getByText("Незавершённые загрузки.")).toBeVisible();
  await expect(page.locator(".upload-resume")).toContainText(path.basename(file));
  await page.setInputFiles("#field-files", file);
  await expect(page.getByText("Загружено файлов: 1/1")).toBeVisible({ timeout: 90_000 });
  return proxy.stats().upstreamBytes - before;
}

test.describe("resumable uploads on a slow link", () => {
  // A browser without CompressionStream: the file goes as it is, as before compression existed.
  const link = slowLink({ compress: false });

  test("a 12 MiB model survives a dropped connection and is recorded once", async ({ page }) => {
    test.setTimeout(120_000);
    await toMatrixStep(page, link.origin);
    const file = bigModel();
    const size = fs.statSync(file).size;
    // About 2 MB/s with a 40 ms delay each way: the transfer takes several seconds.
    link.proxy.setLimits({ bytesPerSecond: 2_000_000, latencyMs: 40 });
    const before = link.proxy.stats().upstreamBytes;
    // Every connection is cut once the server has about 40 % of the file (at the proxy's own count).
    const dropped = link.proxy.cutAllOnceAfter("upstream", 5 * MiB);
    await page.setInputFiles("#field-files", file);

    const progress = page.locator(".upload-progress");
    await expect(progress).toContainText("Загружено 0 из 1");
    await expect(progress).toContainText("clinic-12mib.stl");
    await expect(progress).toContainText(/Передача · \d+ %/);
    // The file is chosen and on its way: "Далее" does not wait for it (ADR 054; it waited before).
    await expect(page.getByRole("button", { name: "Далее →" })).toBeEnabled();

    await dropped;
    expect(link.proxy.stats().cuts).toBeGreaterThan(0);

    await expect(page.getByText("Загружено файлов: 1/1")).toBeVisible({ timeout: 90_000 });
    const sent = link.proxy.stats().upstreamBytes - before;
    expect(sent).toBeGreaterThan(size);
    expect(sent).toBeLessThan(size + CHUNK);

    // Once in the patient's list, once in the queue; the display hides after the end.
    await expect(page.locator(".file-list li", { hasText: "clinic-12mib.stl" })).toHaveCount(1);
    const queue = await queueOf(page);
    expect(Object.values(queue)).toEqual(["pending"]);
    expect(Object.keys(queue)[0]).toMatch(/\/matrix\/clinic-12mib_\d+\.stl$/);
    await expect(progress).toBeHidden({ timeout: 5_000 });
    await expect(page.getByRole("button", { name: "Далее →" })).toBeEnabled();
  });

  test("a reload mid-upload continues from the stored offset when the file is chosen again", async ({ page }) => {
    test.setTimeout(120_000);
    await toMatrixStep(page, link.origin);
    const file = bigModel();
    const size = fs.statSync(file).size;
    const sent = await reloadMidUpload(page, link.proxy, file, 2_000_000);
    // Page loads add a little; the bytes before the reload were not sent again.
    expect(sent).toBeLessThan(size + CHUNK);
    await expect(page.locator(".file-list li", { hasText: "clinic-12mib.stl" })).toHaveCount(1);
    expect(Object.keys(await queueOf(page))).toHaveLength(1);
    await expect(page.locator(".upload-resume")).toHaveCount(0);
  });
});

test.describe("compressed uploads on a slow link", () => {
  const link = slowLink({ compress: true });

  test("a scan goes up compressed, survives a dropped connection re-sending less than a chunk, and is stored byte for byte", async ({ page }) => {
    test.setTimeout(120_000);
    await toMatrixStep(page, link.origin);
    const file = scanModel();
    const bytes = fs.readFileSync(file);
    // The length the browser tells the server with its last PATCH: the whole member stream.
    let declared = 0;
    page.on("request", (request) => {
      const length = request.method() === "PATCH" ? request.headers()["upload-length"] : undefined;
      if (length) declared = Number(length);
    });
    link.proxy.setLimits({ bytesPerSecond: 1_000_000, latencyMs: 40 });
    const before = link.proxy.stats().upstreamBytes;
    // The connection drops once 3 MiB have gone up: inside a chunk (chunks of about 2 s of the link,
    // ADR 096), at the proxy's own count (a poll from here could come late on a busy machine).
    const dropped = link.proxy.cutAllOnceAfter("upstream", 3 * MiB);
    await page.setInputFiles("#field-files", file);

    // Progress counts the model's own bytes and says what went over the network.
    const progress = page.locator(".upload-progress");
    await expect(progress).toContainText(/из 12[,.]\d+ МБ/);
    await expect(progress).toContainText("по сети передано", { timeout: 30_000 });

    await dropped;
    await expect(page.getByText("Загружено файлов: 1/1")).toBeVisible({ timeout: 90_000 });
    // The toast says what compression saved.
    await expect(page.getByText(/Передано [\d,]+ МБ вместо 12,02 МБ: файлы сжаты в браузере/)).toBeVisible();

    const sent = link.proxy.stats().upstreamBytes - before;
    expect(declared).toBeGreaterThan(0);
    expect(declared).toBeLessThan(bytes.length * 0.6);
    expect(sent).toBeGreaterThan(declared);
    expect(sent - declared).toBeLessThan(CHUNK);

    // Recorded once; what is stored is the chosen file itself.
    await expect(page.locator(".file-list li", { hasText: "scan-12mb.stl" })).toHaveCount(1);
    const stored = Object.keys(await queueOf(page));
    expect(stored).toHaveLength(1);
    const download = await page.request.get(`${link.origin}/files/orders/${stored[0]}`);
    expect(download.status()).toBe(200);
    expect(sha256(await download.body())).toBe(sha256(bytes));
  });

  test("a reload mid-upload continues the compressed upload from the stored offset", async ({ page }) => {
    test.setTimeout(120_000);
    await toMatrixStep(page, link.origin);
    const file = scanModel();
    const bytes = fs.readFileSync(file);
    const sent = await reloadMidUpload(page, link.proxy, file, 1_000_000);
    // The members before the reload were not sent again: less than the file compressed plus one chunk.
    expect(sent).toBeLessThan(bytes.length * 0.6 + CHUNK);
    const stored = Object.keys(await queueOf(page));
    expect(stored).toHaveLength(1);
    expect(sha256(await (await page.request.get(`${link.origin}/files/orders/${stored[0]}`)).body())).toBe(sha256(bytes));
  });
});

test("scan results show per file; the 3D preview opens only with JavaScript", async ({ page, javaScriptEnabled }) => {
  test.setTimeout(90_000);
  await toMatrixStep(page, "");
  const arch = fixture("arch-box.stl", () => archStl());
  const open = fixture("open-shell.stl", () => binaryStl(3));
  await page.setInputFiles("#field-files", [arch, open]);
  await page.getByRole("button", { name: "Загрузить", exact: true }).click();
  await expect(page.getByText("Загружено файлов: 2/2")).toBeVisible({ timeout: 30_000 });

  const archRow = page.locator(".file-list li", { hasText: "arch-box.stl" });
  await expect(archRow).toContainText("Размер модели: 62 × 48 × 22 мм");
  await expect(archRow.locator(".scan-warnings")).toHaveCount(0);
  const openRow = page.locator(".file-list li", { hasText: "open-shell.stl" });
  await expect(openRow).toContainText("Модель меньше 20 мм — похоже, она сохранена не в миллиметрах. Проверьте единицы при экспорте и загрузите файл заново.");
  // Degenerate triangles in a doctor's words: what it means for the order, no reader counts (ADR 061).
  await expect(openRow).toContainText("На поверхности модели есть мелкие огрехи. Изготовлению они обычно не мешают: мы проверим модель сами, от вас ничего не нужно.");
  await expect(page.locator(".file-list")).not.toContainText(/треугольн|Двоичный STL/);

  if (!javaScriptEnabled) {
    await expect(page.getByRole("button", { name: "Просмотр" })).toHaveCount(0);
    return;
  }
  await archRow.getByRole("button", { name: "Просмотр" }).click();
  const dialog = page.getByRole("dialog", { name: "Модель arch-box.stl" });
  await expect(dialog).toBeVisible();
  // Headless Chromium may have no WebGL: either way the viewer chunk loaded and said so.
  await expect(dialog.getByRole("status")).toHaveText(/Вращайте мышью|Не удалось показать модель/, { timeout: 30_000 });
  await dialog.getByRole("button", { name: "Закрыть" }).click();
  await expect(dialog).toBeHidden();
});

test("the 3D preview reads the odd files of the STL corpus as the manifest does", async ({ page, javaScriptEnabled }) => {
  test.setTimeout(120_000);
  const corpus = path.resolve("tests/fixtures/stl");
  const manifest = JSON.parse(fs.readFileSync(path.join(corpus, "manifest.json"), "utf8")) as {
    files: Record<string, { expected: { verdict: string; triangles?: number; bbox?: { min: number[]; max: number[] } } }>;
  };
  // The files three.js alone would read otherwise, or would not read at all.
  const odd = ["admesh_block.stl", "derived_longer.trailing-crlf.bin.stl", "derived_gearwheel.count-short.bin.stl", "derived_two-solids.ascii.stl", "cura_inat_proton_x_buildplate.stl"];
  await toMatrixStep(page, "");
  await page.setInputFiles("#field-files", odd.map((name) => path.join(corpus, name)));
  await page.getByRole("button", { name: "Загрузить", exact: true }).click();
  await expect(page.getByText(`Загружено файлов: ${odd.length}/${odd.length}`)).toBeVisible({ timeout: 60_000 });
  await expect(page.locator(".file-list > li")).toHaveCount(odd.length);
  await expect(page.locator(".file-list li", { hasText: "derived_gearwheel.count-short.bin.stl" })).toContainText("Файл прочитан, в конце лишние данные — он сохранён как есть.");
  if (!javaScriptEnabled) {
    await expect(page.getByRole("button", { name: "Просмотр" })).toHaveCount(0);
    return;
  }
  for (const name of odd) {
    const expected = manifest.files[name]!.expected;
    await page.locator(".file-list > li", { hasText: name }).getByRole("button", { name: "Просмотр" }).click();
    const dialog = page.getByRole("dialog", { name: `Модель ${name}` });
    await expect(dialog.getByRole("status")).toHaveText(/Вращайте мышью|Не удалось показать модель/, { timeout: 30_000 });
    const canvas = dialog.locator("canvas");
    await expect(canvas).toHaveAttribute("data-triangles", String(expected.triangles));
    const box = (await canvas.getAttribute("data-box"))!.split(" ").map(Number);
    [...expected.bbox!.min, ...expected.bbox!.max].forEach((value, index) => expect(box[index]).toBeCloseTo(value, 3));
    await dialog.getByRole("button", { name: "Закрыть" }).click();
    await expect(dialog).toBeHidden();
  }
});

test("a doctor without the files here gets a sign-in link that leads back to the order", async ({ page }) => {
  await toMatrixStep(page, "");
  await expect(page.getByRole("heading", { name: "Файлы на другом устройстве?" })).toBeVisible();
  await page.getByRole("button", { name: "Отправить ссылку" }).click();
  await atStep(page, 5);
  await expect(page.getByText("Письмо отправлено")).toBeVisible();
  await expect(page.getByText("Проверьте вашу почту для получения ссылки")).toBeVisible();
});
