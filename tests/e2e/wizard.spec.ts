import fs from "node:fs";
import { expect, type Page, test } from "@playwright/test";
import { atStep, pageSettled, press, watchIdleWork } from "./journeys";
import { fixtureFile } from "./support";

/**
 * A doctor orders for two patients, with JavaScript on and off (the project decides):
 * patient 1 with matrix, aligner and retainer files; patient 2 skipping matrix and retainers.
 */


function binaryStl(triangles: number): Buffer {
  const bytes = Buffer.alloc(84 + 50 * triangles);
  bytes.writeUInt32LE(triangles, 80);
  return bytes;
}

function stlFiles(prefix: string, count: number): string[] {
  return Array.from({ length: count }, (_, index) => fixtureFile(`${prefix}-${index + 1}.stl`, (file) => fs.writeFileSync(file, binaryStl(10 + index))));
}

async function uploadFiles(page: Page, files: string[], step: number) {
  await page.setInputFiles("#field-files", files);
  await press(page, "Загрузить", step);
  await expect(page.getByText(`Загружено файлов: ${files.length}/${files.length}`)).toBeVisible();
}

test("a doctor orders for two patients and reaches the sandbox checkout", async ({ page, javaScriptEnabled }) => {
  test.setTimeout(120_000);
  const email = `e2e-${Date.now()}-${Math.random().toString(36).slice(2, 6)}@clinic.ru`;
  await page.goto("/order");
  await atStep(page, 1);
  await expect(page.getByText("Минимальная сумма заказа — 10 000 ₽.")).toBeVisible();
  await press(page, "Далее →", 2);

  // Step 2: the spec's messages, then the contacts.
  await press(page, "Далее →", 2);
  await expect(page.getByRole("alert")).toContainText("Пожалуйста, укажите email");
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Телефон").fill("+7 900 123-45-67");
  await press(page, "Далее →", 3);

  // Step 3: consent is required on the domestic market: with JavaScript "next" waits for it
  // (customer side §2), without it the server refuses.
  await page.getByLabel("ФИО получателя").fill("Иванова Анна Сергеевна");
  await page.getByLabel("Адрес доставки").fill("Москва, ул. Тверская, 1");
  if (javaScriptEnabled) await expect(page.getByRole("button", { name: "Далее →" })).toBeDisabled();
  else {
    await press(page, "Далее →", 3);
    await expect(page.getByRole("alert")).toContainText("Необходимо согласие на обработку данных");
  }
  await page.getByRole("checkbox").check();
  await press(page, "Далее →", 4);

  // Reloading resumes where the doctor was.
  await page.reload();
  await atStep(page, 4);

  // Patient 1: matrix, aligners and a retainer.
  await page.getByLabel("Имя пациента").fill("Смирнова Е.");
  await press(page, "Добавить пациента", 4);
  await expect(page.getByText("Пациент Смирнова Е. добавлен в заказ")).toBeVisible();
  await press(page, "Далее →", 5);
  await uploadFiles(page, stlFiles("matrix-upper", 2), 5);
  await press(page, "Далее →", 6);
  await page.getByRole("radio", { name: /^Мягкая матрица/ }).check();
  await press(page, "Далее →", 7);
  await uploadFiles(page, stlFiles("aligner-upper", 2), 7);
  await press(page, "Далее →", 8);
  await page.getByRole("radio", { name: /^1-слойный/ }).check();
  await press(page, "Далее →", 9);
  await page.getByRole("radio", { name: /^Волнистая/ }).check();
  await press(page, "Далее →", 10);
  await uploadFiles(page, stlFiles("retainer-upper", 1), 10);
  await press(page, "Далее →", 11);

  // Patient 2: back to add a patient, skip matrix and retainers.
  await press(page, "Добавить ещё пациента", 4);
  await page.getByLabel("Имя пациента").fill("Петров П.");
  await press(page, "Добавить пациента", 4);
  await press(page, "Далее →", 5);
  await expect(page.locator(".patient-banner select")).toHaveValue(/.+/);
  await press(page, "Пропустить", 7);
  await expect(page.getByText("Вы пропустили загрузку файлов матрицы и выбор типа матрицы")).toBeVisible();
  // Back from the aligner upload with the matrix skipped lands on the matrix upload.
  await press(page, "← Назад", 5);
  await press(page, "Пропустить", 7);
  await uploadFiles(page, stlFiles("aligner-b-lower", 8), 7);
  await press(page, "Далее →", 8);
  await page.getByRole("radio", { name: /^3-слойный/ }).check();
  await press(page, "Далее →", 9);
  await page.getByRole("radio", { name: /^Прямая/ }).check();
  await press(page, "Далее →", 10);
  await press(page, "Пропустить", 11);
  await page.reload();
  await atStep(page, 11);

  // 2 soft matrices × 1 000 + 2 single-layer × 900 + 1 retainer × 1 000 + 8 three-layer × 1 000
  // = 12 800 ₽; new customer −3 % = 384; + 1 500 delivery = 13 916 ₽.
  await expect(page.locator(".price-table .total")).toHaveText(/^13\s916\s₽$/);
  await expect(page.getByText("Скидка 3%")).toBeVisible();
  await expect(page.getByRole("row", { name: /Элайнеры 3-слойные для Петров П\./ })).toContainText("8 × 1 000 ₽");

  await page.getByRole("button", { name: "Перейти к оплате" }).click();
  await expect(page).toHaveURL(/\/payment\/sandbox\/sbx_/);
  await expect(page.getByText("ТЕСТОВАЯ ОПЛАТА.")).toBeVisible();
  await expect(page.getByText(/13\s916\s₽/)).toBeVisible();
  await page.getByRole("button", { name: "Оплатить (тест)" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toContainText("оплачен");

  // The paid order is no longer this browser's current order: /order starts afresh.
  await page.goto("/order");
  await atStep(page, 1);
});

test("with JavaScript each step is one request: the step's POST, answered with the next page", async ({ page, javaScriptEnabled }) => {
  test.skip(!javaScriptEnabled, "without JavaScript a step is the form's POST, its redirect and the next page (the journey above)");
  // What the page asks of the server: its code aside, the routes' manifest that Remix asks for in
  // the background when a new step shows a link to a page it has not seen (nothing waits for it),
  // and the icon the browser fetches for its tab when it gets round to it.
  const requests: string[] = [];
  await watchIdleWork(page);
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (!url.pathname.startsWith("/build/") && url.pathname !== "/__manifest" && url.pathname !== "/favicon.svg") requests.push(`${request.method()} ${url.pathname}`);
  });
  await page.goto("/order");
  await atStep(page, 1);
  await pageSettled(page, true);
  const step = async (name: string, next: number) => {
    requests.length = 0;
    await press(page, name, next);
    // Nothing else follows it: no revalidation of the page or the shell — once the page has done
    // all it does after the answer, the POST is still the only request.
    await pageSettled(page, true);
    expect(requests).toEqual(["POST /order.data"]);
  };
  await step("Далее →", 2);
  await page.getByLabel("E-mail").fill(`one-trip-${Date.now()}@clinic.ru`);
  await page.getByLabel("Телефон").fill("+7 900 123-45-67");
  await step("Далее →", 3);
  // The new step's title takes the focus, as a new page's start would.
  await expect(page.locator(".wizard-form h2")).toBeFocused();
  await step("← Назад", 2);
  await expect(page.getByLabel("Телефон")).toHaveValue("+7 900 123-45-67");
  await step("Далее →", 3);
  await page.getByLabel("ФИО получателя").fill("Иванова Анна Сергеевна");
  await page.getByLabel("Адрес доставки").fill("Москва, ул. Тверская, 1");
  await page.getByRole("checkbox").check();
  await step("Далее →", 4);
  // The toast the redirect would have carried comes inside the answer.
  await page.getByLabel("Имя пациента").fill("Смирнова Е.");
  await step("Добавить пациента", 4);
  await expect(page.getByText("Пациент Смирнова Е. добавлен в заказ")).toBeVisible();
  // The form starts afresh for the next patient, as the page after a redirect would.
  await expect(page.getByLabel("Имя пациента")).toHaveValue("");
  await step("Далее →", 5);
  await step("Пропустить", 7);
  await expect(page.getByText("Вы пропустили загрузку файлов матрицы и выбор типа матрицы")).toBeVisible();
  // What the answers showed is what the server holds.
  await page.reload();
  await atStep(page, 7);
  await expect(page.locator(".patient-banner")).toContainText("Смирнова Е.");
});

test.describe("on the international market", () => {
  // playwright.config.ts resolves this host to loopback.
  test.use({ baseURL: `http://aligners-e2e.com:${process.env.E2E_PORT ?? (process.env.E2E_TARGET === "embedded" ? 3220 : 3210)}` });

  test("prices are in euro, the matrix is hard only and there is no consent checkbox", async ({ page }) => {
    await page.goto("/order");
    await atStep(page, 1);
    await expect(page.locator("html")).toHaveAttribute("lang", "en");
    await expect(page.getByRole("row", { name: /Single-layer aligner/ })).toContainText("€13.90");
    await expect(page.getByText(/Soft matrix/)).toHaveCount(0);
    await expect(page.getByText(/Minimum order/)).toHaveCount(0);
    await press(page, "Next →", 2);
    await page.getByLabel("Email").fill(`intl-${Date.now()}@clinic.com`);
    await page.getByLabel("Phone").fill("+49 30 123456");
    await press(page, "Next →", 3);
    await expect(page.getByRole("checkbox")).toHaveCount(0);
    await page.getByLabel("Recipient's full name").fill("Dr. Anna Keller");
    await page.getByLabel("Delivery address").fill("Berlin, Friedrichstraße 1");
    await press(page, "Next →", 4);
    await page.getByLabel("Patient name").fill("Keller M.");
    await page.getByRole("button", { name: "Add patient" }).click();
    await atStep(page, 4);
    await press(page, "Next →", 5);
    await page.setInputFiles("#field-files", stlFiles("intl-upper", 1));
    await page.getByRole("button", { name: "Upload", exact: true }).click();
    await atStep(page, 5);
    await press(page, "Next →", 6);
    await expect(page.getByRole("radio")).toHaveCount(1);
    await expect(page.getByRole("radio")).toBeChecked();
  });
});
