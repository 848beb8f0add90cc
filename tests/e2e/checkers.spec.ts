import { expect, test } from "@playwright/test";
import { checkPage, closeCheckingPages, validateKeptDocuments, watchDocuments } from "./checkers";
import { atStep, orderToCheckout, orderToRetainers, paidOrder, press, signInBackoffice, signInByMail, signInPacker, skipWithFiles, stlFile } from "./journeys";
import { askForInvoice, pendingOrderInCabinet } from "./invoice-support";
import { pastOrderWithAligners } from "./order-again-support";
import { e2eQuery, embedded } from "./support";

/**
 * Every page and state a user meets, through the outside checkers (ADR 048): axe-core's WCAG 2.1 A/AA
 * rules on the live page, and its server-rendered HTML kept for the Nu HTML Checker, which the last
 * test runs once over all of them. Customer pages in each market and language, the legal
 * pages, sign-in, every wizard step with and without a field error and after an upload, a step
 * skipped with its files and brought back, a refused payment, the orders a browser left waiting,
 * the sandbox checkout, the cabinet, the partner area, every back-office page, the packer and its
 * labels, and the error pages. A new page belongs in this list.
 */

const PORT = process.env.E2E_PORT ?? (embedded ? 3220 : 3210);
const INTERNATIONAL = `http://aligners-e2e.com:${PORT}`;

test.beforeEach(({ page }) => watchDocuments(page));
test.afterEach(() => closeCheckingPages());
// Many pages per test, each through axe (the public walk covers both markets in six languages, the Impressum included).
test.describe.configure({ timeout: 360_000 });

test("the domestic market's public pages in each language and the error pages", async ({ page }, testInfo) => {
  // The home pages are visited in each language; every other page is measured on a phone in the other five too.
  const homes = ["/", "/en", "/de", "/es", "/fr", "/it"];
  for (const url of [...homes, "/terms", "/privacy", "/public-offer", "/data-consent", "/auth", "/no-such-page"]) {
    await page.goto(url);
    await checkPage(page, testInfo, url, { languages: !homes.includes(url) });
  }
});

// Apart from the domestic walk: each walk is one test's time limit, which a loaded machine must not reach.
test("the international market's pages and sign-in", async ({ page }, testInfo) => {
  for (const url of ["/", "/de", "/terms", "/privacy", "/data-consent", "/impressum"]) {
    await page.goto(`${INTERNATIONAL}${url}`);
    await checkPage(page, testInfo, `international ${url}`, { languages: url !== "/de" });
  }

  // Sign-in: a refused address, then the link sent (in Russian again: the language URLs kept theirs).
  await page.context().clearCookies();
  await page.goto("/auth");
  await page.getByLabel("E-mail").fill("not-an-address");
  await page.getByRole("button", { name: "Отправить ссылку для входа" }).click();
  await expect(page.getByLabel("E-mail")).toHaveAttribute("aria-invalid", "true");
  await checkPage(page, testInfo, "/auth with a field error");
  await page.getByLabel("E-mail").fill(`checkers-${testInfo.project.name}@clinic.ru`);
  await page.getByRole("button", { name: "Отправить ссылку для входа" }).click();
  await expect(page.getByText("Ссылка отправлена.")).toBeVisible();
  await checkPage(page, testInfo, "/auth, link sent");
});

// The steps whose choice the journey makes before they are checked: a reload in another language would drop it.
const CHOSEN_BEFORE_SEEN = [6, 8, 9];

test("every wizard step, a field error, an upload and the checkout", async ({ page }, testInfo) => {
  await orderToCheckout(page, { aligners: true, onStep: (step) => checkPage(page, testInfo, `wizard step ${step}`, { languages: !CHOSEN_BEFORE_SEEN.includes(step) }) });
  await checkPage(page, testInfo, "sandbox checkout");

  // A new visitor's step refused for its empty fields.
  await page.context().clearCookies();
  await page.goto("/order");
  await atStep(page, 1);
  await press(page, "Далее →", 2);
  await page.getByRole("button", { name: "Далее →" }).click();
  await atStep(page, 2);
  await expect(page.locator("[aria-invalid=true]").first()).toBeVisible();
  await checkPage(page, testInfo, "wizard step 2 with field errors");
});

test("a step skipped with files, what stops payment, the way back from a refused payment, and the orders a browser left waiting", async ({ page }, testInfo) => {
  await orderToRetainers(page);
  await page.setInputFiles("#field-files", [stlFile("checkers-scan.stl")]);
  await press(page, "Загрузить", 10);
  await expect(page.locator(".file-list li", { hasText: "checkers-scan.stl" })).toBeVisible();
  await skipWithFiles(page);
  await checkPage(page, testInfo, "wizard summary, a step skipped with its files set aside");
  await press(page, "изменить: Смирнова Е., Ретейнеры", 10);
  await checkPage(page, testInfo, "wizard step 10, its files set aside");
  await press(page, "Вернуть в заказ", 10);
  await press(page, "Сохранить и вернуться к сводке", 11);
  await expect(page.getByRole("region", { name: "Перед оплатой осталось" })).toBeVisible();
  await checkPage(page, testInfo, "wizard summary, a step back in the order and what stops payment");
  await page.getByRole("button", { name: "Перейти к оплате" }).click();
  await atStep(page, 10);
  await checkPage(page, testInfo, "wizard step 10 after a refused payment");
  await page.getByLabel("Челюсть файла checkers-scan.stl").selectOption("lower");
  await press(page, "Сохранить и вернуться к сводке", 11);
  await page.getByRole("button", { name: "Перейти к оплате" }).click();
  await expect(page).toHaveURL(/\/payment\/sandbox\/sbx_/);
  for (const url of ["/order", "/"]) {
    await page.goto(url);
    await expect(page.getByRole("region", { name: "В этом браузере есть незавершённые заказы" })).toBeVisible();
    await checkPage(page, testInfo, `${url} offering the order this browser left waiting`);
  }
});

test("the cabinet and the partner area", async ({ page }, testInfo) => {
  await page.goto("/cabinet");
  await signInByMail(page, `checkers-cabinet-${testInfo.project.name}-${Date.now()}@clinic.ru`);
  await expect(page).toHaveURL(/\/cabinet$/);
  await checkPage(page, testInfo, "/cabinet", { languages: true });
  await page.getByText("Ваши данные", { exact: true }).click();
  await expect(page.getByRole("button", { name: "Скачать архив" })).toBeVisible();
  await checkPage(page, testInfo, "/cabinet, its data card opened");
  await page.goto("/partner");
  await expect(page.getByRole("heading", { name: "Партнёрский кабинет", level: 1 })).toBeVisible();
  await checkPage(page, testInfo, "/partner before a code is asked for");
  await page.getByRole("button", { name: "Получить партнёрский код" }).click();
  await expect(page.locator(".partner-code")).toHaveText(/^[A-Z]{6}$/);
  await checkPage(page, testInfo, "/partner", { languages: true });
});

test("a clinic's erasure request and the admin's list of requests", async ({ page, browser, javaScriptEnabled }, testInfo) => {
  const email = `checkers-erasure-${testInfo.project.name}-${Date.now()}@clinic.ru`;
  await page.goto("/cabinet/erasure");
  await signInByMail(page, email);
  await expect(page.getByRole("heading", { name: "Удаление ваших данных", level: 1 })).toBeVisible();
  await checkPage(page, testInfo, "/cabinet/erasure", { languages: true });
  await page.getByRole("button", { name: "Запросить удаление" }).click();
  await expect(page.getByText("Отметьте, что вы понимаете последствия удаления")).toBeVisible();
  await checkPage(page, testInfo, "/cabinet/erasure with the box not ticked");
  await page.getByLabel(/Я понимаю, что заказы, файлы и доступ к кабинету будут удалены/).check();
  await page.getByRole("button", { name: "Запросить удаление" }).click();
  await expect(page.getByText(/ждёт решения администратора/)).toBeVisible();
  await checkPage(page, testInfo, "/cabinet/erasure, requested");
  const admin = await (await browser.newContext({ javaScriptEnabled })).newPage();
  await admin.goto("/auth?redirectTo=%2Fbackoffice%2Ferasures");
  await signInByMail(admin, "admin@aligner.local");
  await expect(admin.getByRole("heading", { name: "Запросы на удаление данных", level: 1 })).toBeVisible();
  await checkPage(admin, testInfo, "/backoffice/erasures");
  await admin.getByRole("row").filter({ hasText: email }).getByRole("link", { name: "Удалить данные" }).click();
  await expect(admin.getByRole("dialog", { name: "Удалить данные клиники?" })).toBeVisible();
  await checkPage(admin, testInfo, "/backoffice/erasures, the question before approving");
  await admin.context().close();
});

test("ordering again from a patient of a past order", async ({ page }, testInfo) => {
  test.skip(embedded, "the past order is arranged in the PostgreSQL target's database");
  const email = `checkers-again-${testInfo.project.name}-${Date.now()}@clinic.ru`;
  await pastOrderWithAligners(email);
  await page.goto("/cabinet");
  await signInByMail(page, email);
  await expect(page).toHaveURL(/\/cabinet$/);
  await page.getByText(/^Состав заказа/).click();
  await checkPage(page, testInfo, "/cabinet, an order's patients opened");
  await page.getByRole("link", { name: /^Заказать снова для пациента/ }).click();
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Заказать снова");
  await checkPage(page, testInfo, "/cabinet/again/:orderId/:patientId");
  // Replacement with no file ticked: the form says which files are missing.
  await page.getByRole("button", { name: "Продолжить оформление" }).click();
  await expect(page.locator("#field-files-error")).toBeVisible();
  await checkPage(page, testInfo, "/cabinet/again/:orderId/:patientId with a field error");
});

test("after the payment: the return page, the thank-you page, the order in the cabinet and the inbox's tabs", async ({ page }, testInfo) => {
  const orderId = await paidOrder(page);
  await expect(page.getByText("Мы отправили ссылку для входа")).toBeVisible();
  await checkPage(page, testInfo, "/payment/success, paid, sign-in link sent");
  await page.goto(`/thankyou?orderId=${orderId}`);
  await checkPage(page, testInfo, "/thankyou with the order", { languages: true });
  const [row] = await e2eQuery<{ email: string }>("select email from orders where id = $1", [orderId]);
  await page.goto(`/cabinet/orders/${orderId}`);
  await signInByMail(page, row!.email);
  await expect(page).toHaveURL(new RegExp(`/cabinet/orders/${orderId}$`));
  await checkPage(page, testInfo, "/cabinet/orders/:id", { languages: true });
  await page.goto(`/payment/success?orderId=${orderId}`);
  await checkPage(page, testInfo, "/payment/success, paid, signed in");
  await page.goto("/cabinet?status=paid&sort=oldest");
  await checkPage(page, testInfo, "/cabinet, a tab with its orders", { languages: true });
});

test("a bank-transfer invoice: the cabinet's form and its error, the printable page, the staff's list, their question and their printable page", async ({ page, browser, javaScriptEnabled }, testInfo) => {
  test.skip(embedded, "the order is found in the PostgreSQL target's database");
  const { orderId } = await pendingOrderInCabinet(page, javaScriptEnabled);
  await checkPage(page, testInfo, "/cabinet/orders/:id with the invoice form");
  await askForInvoice(page, "ООО «Проверка»", "7707083894");
  await expect(page.getByText("В ИНН ошибка: проверьте цифры")).toBeVisible();
  await checkPage(page, testInfo, "/cabinet/orders/:id, the invoice form with a field error");
  await askForInvoice(page, "ООО «Проверка»", "7707083893");
  await expect(page.getByRole("heading", { level: 1, name: /^Счёт на оплату №/ })).toBeVisible();
  await checkPage(page, testInfo, "/cabinet/orders/:id/invoices/:invoiceId");
  const invoicePath = new URL(page.url()).pathname;
  await page.goto(`/cabinet/orders/${orderId}`);
  await checkPage(page, testInfo, "/cabinet/orders/:id with its invoice", { languages: true });
  const office = await (await browser.newContext({ javaScriptEnabled })).newPage();
  watchDocuments(office);
  await signInBackoffice(office);
  await office.goto(`/backoffice/orders/${orderId}`);
  await expect(office.getByRole("region", { name: "Счета на оплату" })).toBeVisible();
  await checkPage(office, testInfo, "/backoffice/orders/:id with an invoice, the shared password");
  // A transfer is recorded by a staff member signed in as themselves (ADR 083).
  await office.goto(`/auth?redirectTo=${encodeURIComponent(`/backoffice/orders/${orderId}`)}`);
  await signInByMail(office, "admin@aligner.local");
  await expect(office.getByRole("region", { name: "Счета на оплату" })).toBeVisible();
  await checkPage(office, testInfo, "/backoffice/orders/:id with an invoice");
  await office.getByRole("link", { name: "Отметить оплату по счёту" }).click();
  await expect(office.getByRole("dialog", { name: /^Отметить оплату по счёту №/ })).toBeVisible();
  await checkPage(office, testInfo, "/backoffice/orders/:id, the question before an invoice's payment");
  await office.goto(invoicePath.replace("/cabinet/", "/backoffice/"));
  await expect(office.getByRole("heading", { level: 2, name: /^Счёт на оплату №/ })).toBeVisible();
  await checkPage(office, testInfo, "/backoffice/orders/:id/invoices/:invoiceId");
  await office.context().close();
});

test("every back-office list and tool", async ({ page }, testInfo) => {
  await page.goto("/backoffice");
  await checkPage(page, testInfo, "back-office gate");
  await signInBackoffice(page);
  await checkPage(page, testInfo, "/backoffice", { languages: true });
  // The lists staff read most are measured on a phone in every language; the tools in the page's own.
  const inEveryLanguage = ["/backoffice?view=table&status=all", "/backoffice/clients?all=1", "/backoffice/files", "/backoffice/ftp", "/backoffice/affiliates", "/backoffice/roles", "/backoffice/translate"];
  for (const url of ["/backoffice?status=all", "/backoffice?view=table&status=all", "/backoffice/clients?all=1", "/backoffice/files", "/backoffice/ftp", "/backoffice/ftp?status=failed", "/backoffice/ftp?status=completed", "/backoffice/affiliates", "/backoffice/roles", "/backoffice/translate", "/backoffice/translate/catalogue", "/backoffice/translate/catalogue?q=bo.roles&edit=bo.roles.title&lang=de", "/backoffice/translate/catalogue?missing=de", "/backoffice/test", "/backoffice/test?run=1", "/backoffice/no-such-page"]) {
    await page.goto(url);
    await checkPage(page, testInfo, url, { languages: inEveryLanguage.includes(url) });
  }
});

// Apart from the lists above: each walk is one test's time limit, which a loaded machine must not reach.
test("an order's back-office pages and an opened order card", async ({ page }, testInfo) => {
  await signInBackoffice(page);
  // An order's own pages, from the first card on the dashboard.
  await page.goto("/backoffice");
  const links = page.locator("article.bo-order a[href^='/backoffice/orders/']");
  const orderPages = new Set((await links.evaluateAll((anchors) => anchors.map((anchor) => (anchor as HTMLAnchorElement).pathname))).filter((href) => !href.endsWith("/delete")));
  expect(orderPages.size, "an order's pages linked from the dashboard").toBeGreaterThan(0);
  for (const [index, url] of [...orderPages].slice(0, 4).entries()) {
    await page.goto(url);
    await checkPage(page, testInfo, url.replace(/orders\/[^/]+/, "orders/:id"), { languages: index === 0 });
  }
  // The open dialogs of an order card (its details elements), as staff meet them.
  await page.goto("/backoffice");
  const card = page.locator("article.bo-order").first();
  for (const summary of await card.locator("details > summary").all()) await summary.click();
  await checkPage(page, testInfo, "/backoffice, an order card opened");
});

test("the packer, its cards and its labels", async ({ page }, testInfo) => {
  await page.goto("/packer");
  await checkPage(page, testInfo, "packer gate");
  await signInPacker(page);
  await checkPage(page, testInfo, "/packer", { languages: true });
  for (const view of ["packed", "all"]) {
    await page.goto(`/packer?view=${view}`);
    await checkPage(page, testInfo, `/packer?view=${view}`);
  }
  // An order to pack (the station's first view): its scan page has the scan field (an unpaid one says it cannot be packed).
  await page.goto("/packer");
  const card = page.locator(".pk-card").filter({ has: page.getByRole("link", { name: "Этикетки на пакеты" }) }).first();
  const id = (await card.getAttribute("id"))!.slice(2);
  // The label pages print themselves when they open; a print dialog would hold the page.
  await page.addInitScript(() => void (window.print = () => undefined));
  for (const url of [`/packer/bags/${id}`, `/packer/box/${id}`]) {
    await page.goto(url);
    await checkPage(page, testInfo, url.replace(id, ":id"));
  }
  // The order's scan page (ADR 103), as it opens and with a scan refused loudly.
  await page.goto(`/packer/order/${id}`);
  await checkPage(page, testInfo, "/packer/order/:id", { languages: true });
  // The languages' check leaves the page in its last language: the scan is made on the Russian page.
  await page.goto(`/packer/order/${id}`);
  await page.getByLabel("Код пакета").fill("12345");
  await page.getByLabel("Код пакета").press("Enter");
  await expect(page.locator(".pk-scan-refused")).toContainText("Это не код нашего пакета");
  await checkPage(page, testInfo, "/packer/order/:id, a scan refused");
});

test("every document kept above is valid HTML (Nu HTML Checker)", async ({ baseURL: _baseURL }, testInfo) => {
  expect(validateKeptDocuments(testInfo), "Nu HTML Checker errors").toEqual([]);
});
