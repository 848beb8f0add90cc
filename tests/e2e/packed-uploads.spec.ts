import { createHash } from "node:crypto";
import fs from "node:fs";
import { expect, type Page, test } from "@playwright/test";
import { atStep, press } from "./journeys";
import { scanLikeStl } from "../support/stl-models";
import { fixtureFile } from "./support";
import { startTcpProxy, type TcpProxy } from "../support/tcp-proxy";

/**
 * Packed uploads in Chromium (ADR 045): a scan-shaped model is packed in the page's Web Worker,
 * which loads only once the file is chosen, goes up over a slow link that is cut once, and the
 * object the server stores is the chosen file by SHA-256. Resumable uploads need JavaScript;
 * without it the step is the plain form (wizard.spec.ts).
 */

const MiB = 1024 * 1024;
const CHUNK = 5 * MiB;
const appPort = Number(process.env.E2E_PORT ?? (process.env.E2E_TARGET === "embedded" ? 3220 : 3210));
const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

/** 14 MB shaped like a scan's export: three chunks, packed to about a fifth. */
function scanModel(): string {
  return fixtureFile("scan-packed-14mb.stl", (file) => fs.writeFileSync(file, scanLikeStl(400, 350, 45)));
}

async function toMatrixStep(page: Page, origin: string) {
  await page.goto(`${origin}/order`);
  await atStep(page, 1);
  await press(page, "Далее →", 2);
  await page.getByLabel("E-mail").fill(`packed-${Date.now()}-${Math.random().toString(36).slice(2, 6)}@clinic.ru`);
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

let proxy: TcpProxy;
test.beforeEach(async ({ javaScriptEnabled }) => {
  test.skip(!javaScriptEnabled, "resumable uploads need JavaScript; without it the step is the plain form (wizard.spec.ts)");
  proxy = await startTcpProxy({ target: { host: "127.0.0.1", port: appPort } });
});
test.afterEach(async () => {
  await proxy?.stop();
});

test("a scan is packed in a worker started when the file is chosen, survives a dropped connection, and is stored byte for byte", async ({ page }) => {
  test.setTimeout(120_000);
  const origin = `http://127.0.0.1:${proxy.port}`;
  const workers: string[] = [];
  page.on("worker", (worker) => workers.push(worker.url()));
  await toMatrixStep(page, origin);
  // The step's page starts no worker and loads no packing code before a file is chosen.
  expect(workers).toEqual([]);

  const file = scanModel();
  const bytes = fs.readFileSync(file);
  let declared = 0;
  let metadata = "";
  page.on("request", (request) => {
    if (request.method() === "POST" && request.url().includes("/uploads/tus")) metadata = request.headers()["upload-metadata"] ?? "";
    const length = request.method() === "PATCH" ? request.headers()["upload-length"] : undefined;
    if (length) declared = Number(length);
  });
  // About 0.5 MB/s, so the cut lands mid-upload.
  proxy.setLimits({ bytesPerSecond: 500_000, latencyMs: 40 });
  const before = proxy.stats().upstreamBytes;
  // Every connection is cut once 1 MiB has gone up, at the proxy's own count.
  const dropped = proxy.cutAllOnceAfter("upstream", 1 * MiB);
  await page.setInputFiles("#field-files", file);

  await dropped;
  await expect(page.getByText("Загружено файлов: 1/1")).toBeVisible({ timeout: 90_000 });

  // Packed in a worker from the page's own bundle, announced as stl-pack.
  expect(workers).toHaveLength(1);
  expect(workers[0]).toMatch(/\/build\/_shared\/pack-worker\.client-[A-Z0-9]+\.js$/);
  const encoding = metadata
    .split(",")
    .map((pair) => pair.split(" "))
    .find(([key]) => key === "encoding")?.[1];
  expect(Buffer.from(encoding ?? "", "base64").toString()).toBe("stl-pack");
  // The whole stream is far under gzip's half; the cut cost less than a chunk.
  const sent = proxy.stats().upstreamBytes - before;
  expect(declared).toBeGreaterThan(0);
  expect(declared).toBeLessThan(bytes.length * 0.3);
  expect(sent).toBeGreaterThan(declared);
  expect(sent - declared).toBeLessThan(CHUNK);

  // Recorded once; the stored object is the chosen file.
  await expect(page.locator(".file-list li", { hasText: "scan-packed-14mb.stl" })).toHaveCount(1);
  const orderId = await page.locator('input[name="orderId"]').inputValue();
  const queue = await page.evaluate(async (id) => ((await (await fetch(`/uploads/status?order=${id}`)).json()) as { files: Record<string, string> }).files, orderId);
  const stored = Object.keys(queue);
  expect(stored).toHaveLength(1);
  const download = await page.request.get(`${origin}/files/orders/${stored[0]}`);
  expect(download.status()).toBe(200);
  expect(sha256(await download.body())).toBe(sha256(bytes));
});
