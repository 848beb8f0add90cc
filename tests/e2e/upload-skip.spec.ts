import fs from "node:fs";
import { expect, type Page, test } from "@playwright/test";
import { press, stlFile, walkToPatientStep } from "./journeys";
import { scanLikeStl } from "../support/stl-models";
import { fixtureFile } from "./support";

/**
 * Step 10's "Пропустить" is disabled during an upload (customer side §2). With JavaScript the
 * retainer goes up on its own over a link throttled to a crawl (Chromium's network emulation), so
 * "in flight" lasts until the journey lifts the throttle: the skip is disabled while the file goes
 * up, enabled once it is stored, disabled again for the next file and enabled once that one is
 * cancelled. Without JavaScript the file goes with the step's form; "Пропустить" pressed with a file
 * chosen stores it and the server asks before leaving it out (ADR 057), as it does for files on
 * their way.
 */

const LABELS = { next: "Далее →", email: "E-mail", phone: "Телефон", fullName: "ФИО получателя", address: "Адрес доставки", consent: true };
/** 4 KB/s up: the packed model below takes about a minute, far longer than the journey looks at it. */
const CRAWL = { offline: false, latency: 40, uploadThroughput: 4_000, downloadThroughput: 1_250_000 };
const OPEN = { offline: false, latency: 0, uploadThroughput: -1, downloadThroughput: -1 };

/** About 1 MB shaped like a scan's export: a few hundred kilobytes once packed. */
const retainerModel = (name: string, seed: number) => fixtureFile(`${name}.stl`, (file) => fs.writeFileSync(file, scanLikeStl(100, 100, seed)));

/** A new order's patient, matrix and aligners skipped: the retainer upload (step 10). */
async function toRetainerStep(page: Page) {
  await walkToPatientStep(page, LABELS, `skip-upload-${Date.now()}-${Math.random().toString(36).slice(2, 6)}@clinic.ru`);
  await page.getByLabel("Имя пациента").fill("Смирнова Е.");
  await press(page, "Далее →", 5);
  await press(page, "Пропустить", 7);
  await press(page, "Пропустить", 10);
}

test("with JavaScript, step 10's skip is disabled while a retainer goes up, and enabled once it is stored or cancelled", async ({ page, javaScriptEnabled }) => {
  test.skip(!javaScriptEnabled, "without JavaScript the file goes with the step's form (the journey below)");
  test.setTimeout(120_000);
  await toRetainerStep(page);
  const skip = page.getByRole("button", { name: "Пропустить", exact: true });
  const progress = page.locator(".upload-progress");
  await expect(skip).toBeEnabled();
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", CRAWL);

  // On its way: the skip waits, while "next" may go (the file is chosen).
  await page.setInputFiles("#field-files", retainerModel("skip-retainer-upper", 31));
  await expect(progress).toContainText("skip-retainer-upper.stl");
  await expect(progress).toContainText("Передача");
  await expect(skip).toBeDisabled();
  await expect(page.getByRole("button", { name: "Далее →" })).toBeEnabled();
  // Stored: the skip is there again.
  await cdp.send("Network.emulateNetworkConditions", OPEN);
  await expect(page.getByText("Загружено файлов: 1/1")).toBeVisible({ timeout: 60_000 });
  await expect(skip).toBeEnabled();
  await expect(page.locator(".file-list li", { hasText: "skip-retainer-upper.stl" })).toHaveCount(1);

  // A second file, cancelled on its way: disabled while it goes, enabled once it stopped.
  await cdp.send("Network.emulateNetworkConditions", CRAWL);
  await page.setInputFiles("#field-files", retainerModel("skip-retainer-lower", 32));
  await expect(progress.locator(".upload-item", { hasText: "skip-retainer-lower.stl" })).toContainText("Передача");
  await expect(skip).toBeDisabled();
  await progress.getByRole("button", { name: "Отменить" }).click();
  await expect(progress.locator(".upload-item", { hasText: "skip-retainer-lower.stl" })).toContainText("Ошибка");
  await expect(skip).toBeEnabled();
  await cdp.send("Network.emulateNetworkConditions", OPEN);

  // And it skips: asked first, since the step holds a file (ADR 057), then on to the summary.
  await press(page, "Пропустить", 10);
  await expect(page.getByText("На этом шаге уже есть файлы.")).toBeVisible();
  await press(page, "Пропустить", 11);
});

test("without JavaScript, step 10's skip pressed with a file chosen stores it, asks once, then skips", async ({ page, javaScriptEnabled }) => {
  test.skip(javaScriptEnabled, "with JavaScript the file goes up on its own and the skip waits for it (the journey above)");
  await toRetainerStep(page);
  const skip = page.getByRole("button", { name: "Пропустить", exact: true });
  await page.setInputFiles("#field-files", stlFile("skip-nojs-retainer-upper.stl"));
  await expect(skip).toBeEnabled();
  await press(page, "Пропустить", 10);
  await expect(page.getByText("На этом шаге уже есть файлы.")).toBeVisible();
  await expect(page.locator(".file-list li", { hasText: "skip-nojs-retainer-upper.stl" })).toHaveCount(1);
  await press(page, "Пропустить", 11);
  await expect(page.getByText("Вы пропустили загрузку файлов ретейнеров")).toBeVisible();
});
