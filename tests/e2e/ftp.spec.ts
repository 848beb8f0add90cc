import { expect, type APIRequestContext, type Page, test } from "@playwright/test";
import { backofficePassword, e2eQuery, embedded } from "./support";

/**
 * The back-office FTP queue page (staff-partner-packer §2 "/backoffice/ftp", §4 "FTP queue") and
 * /send-test, with JavaScript on and off (the project decides): list, filters, pages, per-row
 * upload and bulk delete. The demo data fills the queue; each test adds its own order with real
 * files, made through the wizard's form posts, so the js and nojs runs never share rows.
 */

function binaryStl(triangles: number): Buffer {
  const bytes = Buffer.alloc(84 + 50 * triangles);
  bytes.writeUInt32LE(triangles, 80);
  return bytes;
}

/** A draft order with one patient and these matrix files, as a doctor's browser would make it. */
async function draftWithFiles(request: APIRequestContext, baseURL: string, names: string[]) {
  const post = async (form: Record<string, string>) => {
    const response = await request.post("/order", { form, headers: { Origin: baseURL }, maxRedirects: 0 });
    expect(response.status(), await response.text()).toBe(302);
  };
  await post({ intent: "next" });
  await post({ intent: "next", email: `ftp-e2e-${Date.now()}@clinic.ru`, phone: "+7 900 123-45-67" });
  await post({ intent: "next", full_name: "Иванова Анна Сергеевна", address: "Москва, ул. Тверская, 1", consent: "on" });
  await post({ intent: "add_patient", patient_name: "Смирнова Е." });
  await post({ intent: "next" });
  for (const [index, name] of names.entries()) {
    const response = await request.post("/order", {
      multipart: { files: { name, mimeType: "model/stl", buffer: binaryStl(20 + index) }, intent: "upload" },
      headers: { Origin: baseURL },
      maxRedirects: 0,
    });
    expect(response.status()).toBe(302);
  }
}

async function signIn(page: Page, to = "/backoffice/ftp") {
  await page.goto(to);
  await expect(page).toHaveURL(/\/backoffice\/login/);
  await page.getByLabel("Пароль").fill(backofficePassword());
  await page.getByRole("button", { name: "Войти" }).click();
  // The gate's answer sets the cookie: wait for it before a caller navigates on (a goto would cancel it).
  await expect(page).not.toHaveURL(/\/backoffice\/login/);
}

const rows = (page: Page) => page.locator('tbody tr:has(input[name="ids"])');

/** Applies the filters: JavaScript submits on change, without it the button does. */
async function filter(page: Page, status: string, type: string) {
  const filters = page.getByRole("form", { name: "Фильтры очереди" });
  await filters.getByLabel("Статус").selectOption({ label: status });
  await filters.getByLabel("Тип файла").selectOption({ label: type });
  await filters.getByRole("button", { name: "Показать" }).click();
}

const groups = (page: Page) => page.locator("tbody.ftp-order");

test("the FTP page lists the queue by order, drafts' files left out, filters by status and type, and pages by order", async ({ page }) => {
  await signIn(page, "/backoffice");
  await page.getByRole("link", { name: "FTP", exact: true }).first().click();
  await expect(page).toHaveURL(/\/backoffice\/ftp$/);
  await expect(page.getByRole("heading", { name: "Очередь загрузки на FTP", level: 1 })).toBeVisible();
  await expect(page.getByRole("button", { name: "Обработать очередь" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Обновить" })).toBeVisible();
  // Default filter: pending, every type.
  await expect(page.getByLabel("Статус")).toHaveValue("pending");
  await expect(page.getByLabel("Тип файла")).toHaveValue("all");
  await expect(groups(page).first()).toBeVisible();
  const count = await groups(page).count();
  expect(count).toBeGreaterThan(0);
  expect(count).toBeLessThanOrEqual(20);
  // Each order heads its files; no draft's files are listed.
  for (const heading of await groups(page).locator(".ftp-order-head").allTextContents()) {
    expect(heading).toMatch(/^Заказ [0-9A-F]{4}/);
    expect(heading).not.toContain("Черновик");
  }
  for (const badge of await rows(page).locator(".badge").allTextContents()) expect(["Ожидает", "Загрузка..."]).toContain(badge);
  await expect(page.getByText(/^Заказов: \d+ · Записей: \d+$/)).toBeVisible();

  const codes = async () => groups(page).locator(".ftp-order-code").allTextContents();
  const next = page.getByRole("link", { name: "Вперёд →" });
  if ((await next.count()) > 0) {
    const firstPage = await codes();
    await next.click();
    await expect(page).toHaveURL(/after=[0-9a-f-]{36}/);
    // The address changes before React has drawn the page's rows (a transition): wait for the rows.
    await expect.poll(async () => (await codes()).filter((code) => firstPage.includes(code)), { message: "orders of the first page on the second" }).toEqual([]);
    const secondPage = await codes();
    expect(secondPage.length).toBeGreaterThan(0);
    await page.getByRole("link", { name: "← Назад" }).click();
    await expect(page).toHaveURL(/before=[0-9a-f-]{36}/);
    // Back before the second page: none of its orders again. (Not "the first page exactly": the
    // worker and the other journeys send and add files meanwhile, so orders leave and join the list.)
    await expect(groups(page).first()).toBeVisible();
    await expect.poll(async () => (await codes()).filter((code) => secondPage.includes(code)), { message: "orders of the second page back on the first" }).toEqual([]);
  }

  // Each filter's rows, once drawn (the address changes first): all of its type, then all of its status.
  const distinct = async (cells: string) => [...new Set(await rows(page).locator(cells).allTextContents())];
  await filter(page, "Ожидает", "Ретейнер");
  await expect(page).toHaveURL(/status=pending&type=retainer/);
  await expect.poll(() => distinct("td:nth-child(3)")).toEqual(["Ретейнер"]);

  await filter(page, "Ошибка", "Все");
  await expect(page).toHaveURL(/status=failed&type=all/);
  await expect.poll(() => distinct(".badge")).toEqual(["Ошибка"]);
  // The last error of each failed entry is shown.
  await expect(rows(page).first().locator(".ftp-error")).not.toBeEmpty();
});

test("staff re-upload a file by hand and bulk-delete entries", async ({ page, request, baseURL }) => {
  test.skip(embedded, "the order is marked paid in the PostgreSQL target's database");
  const tag = `e2e${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`;
  const names = [`${tag}-a.stl`, `${tag}-b.stl`, `${tag}-c.stl`];
  await draftWithFiles(request, baseURL!, names);
  await signIn(page);

  // A draft's files are not listed: they go only after payment.
  const rowOf = (name: string) => rows(page).filter({ hasText: name });
  await expect(page.getByRole("heading", { name: "Очередь загрузки на FTP", level: 1 })).toBeVisible();
  await expect(rowOf(names[0]!)).toHaveCount(0);
  // Once the order is paid its files are listed under it, each with "Загрузить".
  const [order] = await e2eQuery<{ order_id: string }>("select order_id from ftp_uploads_queue where original_name = $1", [names[0]]);
  await e2eQuery("update orders set status = 'paid', paid_at = now(), total_cost = 1250000 where id = $1", [order!.order_id]);
  await page.getByRole("link", { name: "Обновить" }).click();
  await expect(rowOf(names[0]!)).toContainText("Ожидает");
  await rowOf(names[0]!).getByRole("button", { name: `Загрузить ${names[0]} на FTP` }).click();
  await expect(page.getByRole("status").filter({ hasText: "Файл успешно отправлен на FTP" })).toBeVisible();
  await expect(rowOf(names[0]!)).toHaveCount(0);

  await filter(page, "Загружено", "Матрица");
  await expect(rowOf(names[0]!)).toContainText("Загружено");
  await expect(rowOf(names[0]!)).toContainText("Отправлен вручную");
  await expect(rowOf(names[0]!).getByRole("button")).toHaveCount(0); // completed: no second upload

  // Bulk delete of the two others.
  await filter(page, "Ожидает", "Матрица");
  await rowOf(names[1]!).getByRole("checkbox").check();
  await rowOf(names[2]!).getByRole("checkbox").check();
  await page.getByRole("button", { name: "Удалить выбранные" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Успешно удалено записей: 2" })).toBeVisible();
  await expect(rowOf(names[1]!)).toHaveCount(0);
  await expect(rowOf(names[2]!)).toHaveCount(0);
  await expect(page).toHaveURL(/type=matrix/);
});

test("deleting with nothing selected says so", async ({ page }) => {
  await signIn(page);
  await page.getByRole("button", { name: "Удалить выбранные" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Не выбрано ни одной записи" })).toBeVisible();
});

test("/send-test sends a file to the test folder and shows its path and size", async ({ page }) => {
  await signIn(page, "/send-test");
  await page.goto("/send-test");
  await expect(page.getByRole("heading", { name: "Тестовая загрузка на FTP" })).toBeVisible();
  await page.getByRole("button", { name: "Отправить" }).click();
  await expect(page.getByText("Пожалуйста, выберите файл для загрузки")).toBeVisible();

  const name = `probe-${Date.now()}.stl`;
  await page.getByLabel("Файл").setInputFiles({ name, mimeType: "model/stl", buffer: binaryStl(40) });
  await page.getByRole("button", { name: "Отправить" }).click();
  await expect(page.getByText("Файл успешно отправлен на FTP")).toBeVisible();
  await expect(page.getByText(`Путь на сервере: /AlignersFactory/test/${name}`)).toBeVisible();
  await expect(page.getByText("Размер: 2,04 КБ").first()).toBeVisible();
});

test("with JavaScript the page refreshes itself every 5 seconds, and not while hidden", async ({ page, javaScriptEnabled }) => {
  test.skip(!javaScriptEnabled, "auto-refresh needs JavaScript; without it the Refresh link does the job");
  await signIn(page);
  await expect(page.getByText("Таблица обновляется каждые 5 секунд, пока вкладка открыта.")).toBeVisible();
  await page.waitForRequest((request) => request.url().includes("/backoffice/ftp.data"), { timeout: 8_000 });

  await page.evaluate(() => {
    Object.defineProperty(document, "visibilityState", { configurable: true, get: () => "hidden" });
    document.dispatchEvent(new Event("visibilitychange"));
  });
  let refreshed = false;
  page.on("request", (request) => {
    if (request.url().includes("/backoffice/ftp.data")) refreshed = true;
  });
  await page.waitForTimeout(6_000);
  expect(refreshed).toBe(false);
});
