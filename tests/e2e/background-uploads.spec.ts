import { createHash } from "node:crypto";
import fs from "node:fs";
import { expect, type Page, test } from "@playwright/test";
import { press, walkToPatientStep } from "./journeys";
import { scanLikeStl } from "../support/stl-models";
import { fixtureFile } from "./support";

/**
 * Uploads go on while the doctor goes on (ADR 054): on a 2 Mbit/s uplink (Chromium's network
 * emulation) a doctor chooses a scan-shaped model on steps 5, 7 and 10 and moves on at once; every
 * later step shows the files still going up, the summary's payment waits for them and says so,
 * payment opens once they are in, and the stored objects are the chosen files byte for byte. The
 * files' data is held back while the journey looks at them "in flight" (uploadGate): on a busy machine
 * the steps took longer than the uploads, and the state the journey checks had already passed.
 * Without JavaScript the step is the plain form that sends its files with the step (wizard.spec.ts).
 */

const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");
/** 2 Mbit/s up, 10 Mbit/s down, 40 ms. */
const SLOW_UPLINK = { offline: false, latency: 40, uploadThroughput: 250_000, downloadThroughput: 1_250_000 };

/**
 * Holds the uploads' data (tus PATCH requests) while held, so that "still going up" is a state the
 * journey releases, not a race with the machine's speed. A request the page gives up meanwhile (the
 * doctor's "Отменить") is simply not sent.
 */
async function uploadGate(page: Page) {
  let open = Promise.resolve();
  let release = () => {};
  await page.route("**/uploads/tus/**", async (route) => {
    if (route.request().method() === "PATCH") await open;
    await route.continue().catch(() => undefined);
  });
  return {
    hold() {
      open = new Promise<void>((resolve) => (release = resolve));
    },
    release: () => release(),
  };
}

/** About 4 MB shaped like a scan's export (packed to about a fifth: several seconds each at 2 Mbit/s). */
function scanModel(name: string, seed: number): string {
  return fixtureFile(`${name}.stl`, (file) => fs.writeFileSync(file, scanLikeStl(210, 190, seed)));
}

test.beforeEach(({ javaScriptEnabled }) => {
  test.skip(!javaScriptEnabled, "background uploads need JavaScript; without it the step sends its files with the form (wizard.spec.ts)");
});

test("models chosen on steps 5, 7 and 10 go up while the doctor reaches the summary; payment waits for them, then the stored files are the chosen ones", async ({ page }) => {
  test.setTimeout(180_000);
  const models = { matrix: scanModel("bg-matrix-upper", 11), aligners: scanModel("bg-aligners-upper-01", 12), retainer: scanModel("bg-retainer-upper", 13) };
  const labels = { next: "Далее →", email: "E-mail", phone: "Телефон", fullName: "ФИО получателя", address: "Адрес доставки", consent: true };
  await walkToPatientStep(page, labels, `bg-${Date.now()}-${Math.random().toString(36).slice(2, 6)}@clinic.ru`);
  await page.getByLabel("Имя пациента").fill("Смирнова Е.");
  await press(page, "Далее →", 5);
  const orderId = await page.locator('input[name="orderId"]').inputValue();

  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", SLOW_UPLINK);
  const gate = await uploadGate(page);
  gate.hold();
  const finished: string[] = [];
  page.on("requestfinished", (request) => {
    if (request.url().includes("/uploads/tus/") && request.method() === "PATCH" && request.headers()["upload-length"]) finished.push(request.url());
  });

  // Step 5: the model goes up; "Далее" does not wait for it.
  await page.setInputFiles("#field-files", models.matrix);
  await expect(page.locator(".upload-progress")).toContainText("bg-matrix-upper.stl");
  await press(page, "Далее →", 6);
  // Later steps show the file still in flight, with its progress.
  const background = page.locator(".background-uploads");
  await expect(background).toContainText("bg-matrix-upper.stl");
  await expect(background).toContainText(/\d+ %/);
  await page.getByRole("radio", { name: /^Твердая матрица/ }).check();
  await press(page, "Далее →", 7);

  await page.setInputFiles("#field-files", models.aligners);
  await press(page, "Далее →", 8);
  await expect(background).toContainText("bg-aligners-upper-01.stl");
  await page.getByRole("radio", { name: /^1-слойный/ }).check();
  await press(page, "Далее →", 9);
  await page.getByRole("radio", { name: /^Волнистая/ }).check();
  await press(page, "Далее →", 10);

  await page.setInputFiles("#field-files", models.retainer);
  await press(page, "Далее →", 11);
  // The summary: the doctor got here before the uploads ended; payment waits for them and says so.
  expect(finished.length).toBeLessThan(3);
  await expect(page.locator(".pay-waits")).toContainText(/загрузятся файлы в пути \([123]\)/);
  await expect(background).toContainText("bg-retainer-upper.stl");
  const pay = page.getByRole("button", { name: "Перейти к оплате" });
  await expect(pay).toBeDisabled();
  // The summary counts what was chosen: one file of each kind, and the price of all three, files in
  // flight included (said under the price).
  const summary = page.locator(".summary-patient");
  for (const kind of ["Матрицы", "Элайнеры", "Ретейнеры"]) await expect(summary.locator("li", { hasText: kind })).toContainText("файлов: 1");
  await expect(page.locator(".summary-in-flight")).toContainText(/ещё загружаются \([123]\)/);
  const total = page.locator(".price-table .total");
  const totalWhileInFlight = await total.innerText();
  gate.release();

  // Once they are in, payment opens and the price, now the server's from the stored files, is the same.
  await expect(pay).toBeEnabled({ timeout: 150_000 });
  await expect(page.locator(".pay-waits")).toHaveCount(0);
  await expect(page.locator(".summary-in-flight")).toHaveCount(0);
  await expect(total).toHaveText(totalWhileInFlight);
  await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 0, uploadThroughput: -1, downloadThroughput: -1 });
  await pay.click();
  await expect(page).toHaveURL(/\/payment\/sandbox\/sbx_[0-9a-f]{24}$/);

  // Stored once each, byte for byte.
  const statuses = await page.request.get(`/uploads/status?order=${orderId}`);
  const stored = Object.keys(((await statuses.json()) as { files: Record<string, string> }).files);
  expect(stored).toHaveLength(3);
  for (const [type, file] of Object.entries(models)) {
    const key = stored.find((candidate) => candidate.includes(`/${type}/`));
    expect(key, type).toBeDefined();
    const download = await page.request.get(`/files/orders/${key}`);
    expect(download.status()).toBe(200);
    expect(sha256(await download.body())).toBe(sha256(fs.readFileSync(file)));
  }
});

test("a file that did not go up stays listed with a retry and a removal, and holds nothing", async ({ page }) => {
  test.setTimeout(120_000);
  const model = scanModel("bg-retry", 14);
  const labels = { next: "Далее →", email: "E-mail", phone: "Телефон", fullName: "ФИО получателя", address: "Адрес доставки", consent: true };
  await walkToPatientStep(page, labels, `bg-retry-${Date.now()}-${Math.random().toString(36).slice(2, 6)}@clinic.ru`);
  await page.getByLabel("Имя пациента").fill("Смирнова Е.");
  await press(page, "Далее →", 5);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", SLOW_UPLINK);
  const gate = await uploadGate(page);

  // Stopped on its way: listed as failed, with the doctor told what to do; nothing holds the step.
  gate.hold();
  await page.setInputFiles("#field-files", model);
  const progress = page.locator(".upload-progress");
  await progress.getByRole("button", { name: "Отменить" }).click();
  await expect(progress).toContainText("Ошибка");
  await expect(page.locator(".failed-uploads")).toContainText("Оплата их не ждёт");
  await expect(page.getByRole("button", { name: "Далее →" })).toBeDisabled();

  // Retried: it goes up again and the step moves on.
  gate.release();
  await progress.getByRole("button", { name: "Повторить" }).click();
  await expect(page.getByText("Загружено файлов: 1/1")).toBeVisible({ timeout: 90_000 });
  await expect(page.locator(".file-list li", { hasText: "bg-retry.stl" })).toHaveCount(1);
  await expect(page.locator(".failed-uploads")).toHaveCount(0);

  // Removed: off the list, and the page says nothing more about it.
  gate.hold();
  await page.setInputFiles("#field-files", model);
  await progress.getByRole("button", { name: "Отменить" }).click();
  await progress.getByRole("button", { name: "Убрать" }).click();
  await expect(progress).toBeHidden();
  await expect(page.locator(".failed-uploads")).toHaveCount(0);
  await press(page, "Далее →", 6);
});
