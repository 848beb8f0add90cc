import fs from "node:fs";
import { expect, type Page, test, type TestInfo } from "@playwright/test";
import { atStep, press } from "./journeys";
import { measure } from "./layout";
import { fixtureFile } from "./support";

/**
 * The wizard on a phone, a tablet and a laptop (issue "A wizard a doctor cannot misfile", item 6):
 * at 360, 390, 768 and 1366 px every step and the summary show all their text inside its box (no
 * amount cut off, nothing to scroll sideways) and the messenger button covers no control of the
 * wizard at any scroll position. One order is walked forward at one width, back at the next, and so
 * on; every page is kept as a screenshot among the test's attachments. Then the file drop zone: a
 * model dropped on it and one chosen from the keyboard both reach the order.
 */

const VIEWPORTS = [
  { width: 360, height: 740 },
  { width: 390, height: 844 },
  { width: 768, height: 1024 },
  { width: 1366, height: 768 },
];
// A long name, as clinics type them: it reaches every line of the summary and the price list.
const PATIENT = "Смирнова-Преображенская Екатерина Александровна";

function binaryStl(name: string, triangles = 12): string {
  return fixtureFile(name, (file) => {
    const bytes = Buffer.alloc(84 + 50 * triangles);
    bytes.writeUInt32LE(triangles, 80);
    fs.writeFileSync(file, bytes);
  });
}

async function checkLayout(page: Page, testInfo: TestInfo, width: number, what: string) {
  const name = `${String(width).padStart(4, "0")}px-${what}.png`;
  const file = testInfo.outputPath(name);
  await page.screenshot({ path: file, fullPage: true });
  await testInfo.attach(name, { path: file, contentType: "image/png" });
  await expect(page.locator(".messenger-button"), "the messenger button is on the page").toHaveCount(1);
  const report = await measure(page);
  expect.soft(report.sideways, `${what} at ${width} px scrolls sideways`).toBeLessThanOrEqual(0);
  expect.soft(report.overflowing, `${what} at ${width} px: text outside its box`).toEqual([]);
  expect.soft(report.covered, `${what} at ${width} px: controls or badges under the messenger button`).toEqual([]);
  expect.soft(report.messengerSeen, `${what} at ${width} px: the messenger button is reachable at the page's end`).toBe(true);
}

/** Chooses a model on an upload step and waits until the step lists it, with and without JavaScript. */
async function upload(page: Page, file: string, step: number) {
  await page.setInputFiles("#field-files", [file]);
  await press(page, "Загрузить", step);
  await expect(page.locator(".file-list .file-name").filter({ hasText: file.split("/").pop()! })).toBeVisible();
}

const forward = (page: Page, step: number) => press(page, "Далее →", step);
// Step 5 has no "← Назад": its way back is to the patients.
const back = (page: Page, step: number) => press(page, step === 4 ? "Добавить ещё пациента" : "← Назад", step);

test("every step and the summary fit the screen at 360, 390, 768 and 1366 px, the messenger button on no control", async ({ page }, testInfo) => {
  test.setTimeout(240_000);
  const [first, ...others] = VIEWPORTS;
  await page.setViewportSize(first!);
  const seen = (step: number) => checkLayout(page, testInfo, first!.width, step === 11 ? "step-11-summary" : `step-${String(step).padStart(2, "0")}`);

  // The order, filled in at the first width: every step holds something, so the summary has every line.
  await page.goto("/order");
  await atStep(page, 1);
  await seen(1);
  await forward(page, 2);
  await page.getByLabel("E-mail").fill(`layout-${Date.now()}-${Math.random().toString(36).slice(2, 6)}@clinic.ru`);
  await page.getByLabel("Телефон").fill("+7 900 123-45-67");
  await seen(2);
  await forward(page, 3);
  await page.getByLabel("ФИО получателя").fill("Иванова Анна Сергеевна");
  await page.getByLabel("Адрес доставки").fill("Москва, ул. Тверская, д. 1, кв. 15, домофон 15К");
  await page.getByRole("checkbox").check();
  await seen(3);
  await forward(page, 4);
  await page.getByLabel("Имя пациента").fill(PATIENT);
  await press(page, "Добавить пациента", 4);
  await seen(4);
  await forward(page, 5);
  await upload(page, binaryStl("layout-matrix-upper.stl"), 5);
  await seen(5);
  await forward(page, 6);
  await page.getByRole("radio", { name: /^Твердая матрица/ }).check();
  await seen(6);
  await forward(page, 7);
  await upload(page, binaryStl("layout-aligner-upper-01.stl"), 7);
  await seen(7);
  await forward(page, 8);
  await page.getByRole("radio", { name: /^1-слойный/ }).check();
  await seen(8);
  await forward(page, 9);
  await page.getByRole("radio", { name: /^Волнистая/ }).check();
  await seen(9);
  await forward(page, 10);
  await upload(page, binaryStl("layout-retainer-lower.stl"), 10);
  await seen(10);
  await forward(page, 11);
  await expect(page.getByText("Итого")).toBeVisible();
  await seen(11);

  // The same order at the other widths: back from the summary to step 1, then forward again, and so on.
  let at = 11;
  for (const viewport of others) {
    await page.setViewportSize(viewport);
    const going = at === 11 ? -1 : 1;
    for (;;) {
      await checkLayout(page, testInfo, viewport.width, at === 11 ? "step-11-summary" : `step-${String(at).padStart(2, "0")}`);
      if ((going < 0 && at === 1) || (going > 0 && at === 11)) break;
      // The consent is asked again each time step 3 is shown.
      if (at === 3 && going > 0) await page.getByRole("checkbox").check();
      at += going;
      await (going < 0 ? back(page, at) : forward(page, at));
    }
  }
});

test.describe("the file drop zone", () => {
  async function toMatrixStep(page: Page) {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto("/order");
    await forward(page, 2);
    await page.getByLabel("E-mail").fill(`drop-${Date.now()}-${Math.random().toString(36).slice(2, 6)}@clinic.ru`);
    await page.getByLabel("Телефон").fill("+7 900 123-45-67");
    await forward(page, 3);
    await page.getByLabel("ФИО получателя").fill("Иванова Анна Сергеевна");
    await page.getByLabel("Адрес доставки").fill("Москва, ул. Тверская, 1");
    await page.getByRole("checkbox").check();
    await forward(page, 4);
    await page.getByLabel("Имя пациента").fill("Смирнова Е.");
    await press(page, "Добавить пациента", 4);
    await forward(page, 5);
  }

  test("a model dragged from the computer onto the zone is uploaded", async ({ page, javaScriptEnabled }) => {
    await toMatrixStep(page);
    const file = binaryStl("drop-matrix-upper.stl");
    const zone = page.locator(".drop-zone");
    await expect(zone).toContainText("Перетащите файлы сюда или");
    await zone.scrollIntoViewIfNeeded();
    const box = (await zone.boundingBox())!;
    // A real drag of a file from the desktop, as the browser receives it (not an event made up in the page).
    const cdp = await page.context().newCDPSession(page);
    const drag = { x: box.x + box.width / 2, y: box.y + box.height / 2, data: { items: [], files: [file], dragOperationsMask: 1 } };
    for (const type of ["dragEnter", "dragOver", "drop"] as const) await cdp.send("Input.dispatchDragEvent", { type, ...drag });
    // With JavaScript the drop starts the resumable upload at once; without, it fills the form, which "Загрузить" sends.
    if (!javaScriptEnabled) await press(page, "Загрузить", 5);
    await expect(page.locator(".file-list .file-name")).toHaveText(["drop-matrix-upper.stl"]);
    await expect(page.getByText("Загруженные файлы: 1")).toBeVisible();
  });

  test("the zone's button is reached by Tab and opens the file picker with Enter and with Space", async ({ page }) => {
    await toMatrixStep(page);
    // The picker is answered by the test; asking for it before the keys are pressed makes sure none is missed.
    page.on("filechooser", () => {});
    await page.getByRole("button", { name: "Загрузить" }).focus();
    let tabs = 0;
    while (!(await page.evaluate(() => document.activeElement?.id === "field-files"))) {
      expect(++tabs, "Tab backwards reaches the file choice").toBeLessThan(10);
      await page.keyboard.press("Shift+Tab");
    }
    // The focus is shown on the zone's button, which is what the doctor sees.
    await expect(page.locator(".drop-zone .button")).toHaveCSS("outline-style", "solid");
    for (const key of ["Enter", "Space"]) {
      const chooser = page.waitForEvent("filechooser");
      await page.keyboard.press(key);
      await (await chooser).setFiles(key === "Enter" ? [] : [binaryStl("keyboard-matrix-lower.stl")]);
    }
    await atStep(page, 5);
    await press(page, "Загрузить", 5);
    await expect(page.locator(".file-list .file-name")).toHaveText(["keyboard-matrix-lower.stl"]);
  });
});
