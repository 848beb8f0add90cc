import { type Browser, expect, type Page, test } from "@playwright/test";
import { checkPage, closeCheckingPages, validateKeptDocuments, watchDocuments } from "./checkers";
import { followMailedLink, paidOrder, signInBackoffice } from "./journeys";
import { e2eQuery } from "./support";

/**
 * An order's thread (ADR 104), with JavaScript on and off: staff ask a question on a paid order, the
 * doctor reads it in the cabinet and answers, staff answer back; who the order waits for follows
 * each message; a lab note never reaches the cabinet. Each page and state goes through axe, and its
 * HTML through the Nu checker at the end.
 */

test.beforeEach(({ page }) => watchDocuments(page));
test.afterEach(() => closeCheckingPages());

async function staffPage(browser: Browser, javaScriptEnabled: boolean): Promise<Page> {
  const page = await (await browser.newContext({ javaScriptEnabled })).newPage();
  watchDocuments(page);
  await signInBackoffice(page);
  return page;
}

const waitingOn = async (orderId: string) => (await e2eQuery<{ waiting_on: string | null }>("select waiting_on from order_threads where order_id = $1", [orderId]))[0]?.waiting_on ?? null;

test("staff ask on a paid order, the doctor answers in the cabinet, and the wait follows the thread", async ({ page, browser, javaScriptEnabled }, testInfo) => {
  test.setTimeout(180_000);
  const orderId = await paidOrder(page);
  const [row] = await e2eQuery<{ email: string }>("select email from orders where id = $1", [orderId]);

  // Staff open the order's thread tab: nothing yet; they ask, then note something for the lab only.
  const staff = await staffPage(browser, javaScriptEnabled);
  await staff.goto(`/backoffice/orders/${orderId}`);
  await staff.getByRole("link", { name: "Переписка" }).click();
  await expect(staff.getByRole("heading", { name: "Переписка по заказу", level: 2 })).toBeVisible();
  await expect(staff.getByText("Сообщений пока нет.")).toBeVisible();
  await checkPage(staff, testInfo, "back-office thread, empty");
  await staff.getByRole("button", { name: "Отправить" }).click();
  await expect(staff.getByText("Напишите сообщение")).toBeVisible();
  await checkPage(staff, testInfo, "back-office thread, a field error");
  await staff.getByLabel("Сообщение клинике").fill("На шаге 3 открытый край — пришлёте скан заново? https://example.com/guide");
  await expect(staff.getByLabel("Это вопрос — ждать ответа клиники")).toBeChecked();
  await staff.getByRole("button", { name: "Отправить" }).click();
  await expect(staff.getByText("Сообщение отправлено")).toBeVisible();
  await expect(staff.getByRole("link", { name: "https://example.com/guide" })).toBeVisible();
  await staff.getByLabel("Заметка для лаборатории (клиника её не увидит)").fill("Секрет лаборатории: проверить срез");
  await staff.getByRole("button", { name: "Добавить заметку" }).click();
  await expect(staff.getByText("Заметка добавлена")).toBeVisible();
  await expect(staff.getByText("Заметка лаборатории — клиника её не видит")).toBeVisible();
  await checkPage(staff, testInfo, "back-office thread with a question and a note");
  expect(await waitingOn(orderId)).toBe("clinic");

  // The doctor reads the question in the cabinet, never the note, and answers.
  await followMailedLink(page, row!.email);
  await expect(page).toHaveURL(new RegExp(`/cabinet/orders/${orderId}$`));
  // The cabinet's tab "Нужен ваш ответ" counts it and leads to it.
  await page.goto("/cabinet");
  const answerTab = page.locator(".cabinet-tabs").getByRole("link", { name: /Нужен ваш ответ/ });
  await expect(answerTab.locator(".tab-count")).toHaveText("1");
  await answerTab.click();
  // The mailed link opened the order's page already: its message is read, the wait stays.
  const listed = page.locator(`.order-card a[href="/cabinet/orders/${orderId}"]`);
  await expect(listed).toHaveCount(1);
  await checkPage(page, testInfo, "cabinet tab \"Нужен ваш ответ\"");
  await listed.click();
  await expect(page.getByText("На шаге 3 открытый край — пришлёте скан заново?")).toBeVisible();
  await expect(page.getByText("Лаборатория ждёт вашего ответа.")).toBeVisible();
  expect(await page.content()).not.toContain("Секрет лаборатории");
  await checkPage(page, testInfo, "cabinet order page with the thread");
  await page.getByLabel("Сообщение лаборатории").fill("Да, пришлём сегодня.");
  await page.getByRole("button", { name: "Отправить" }).click();
  await expect(page.getByText("Сообщение отправлено")).toBeVisible();
  await expect(page.getByText("Да, пришлём сегодня.")).toBeVisible();
  await expect(page.getByText("Лаборатория ждёт вашего ответа.")).toHaveCount(0);
  expect(await waitingOn(orderId)).toBe("lab");

  // Staff's work list counts the order under "Ждут ответа"; its row says what is unread.
  const waitingTab = async () => staff.locator(".bo-status-tabs").getByRole("link", { name: /Ждут ответа/ }).locator(".bo-tab-count");
  await staff.goto("/backoffice?status=waiting");
  await expect(await waitingTab()).toHaveText(" 1");
  await checkPage(staff, testInfo, "work list tab \"Ждут ответа\"");
  await staff.getByRole("link", { name: "новых сообщений: 1" }).first().click();

  // Staff see the answer and that the order waits for them; their reply ends the wait.
  await expect(staff.getByText("Да, пришлём сегодня.")).toBeVisible();
  await expect(staff.getByText("Ждёт ответа лаборатории")).toBeVisible();
  await staff.getByLabel("Сообщение клинике").fill("Спасибо, ждём.");
  await staff.getByLabel("Это вопрос — ждать ответа клиники").uncheck();
  await staff.getByRole("button", { name: "Отправить" }).click();
  await expect(staff.getByText("Сообщение отправлено")).toBeVisible();
  await expect(staff.getByText("Ждёт ответа лаборатории")).toHaveCount(0);
  expect(await waitingOn(orderId)).toBeNull();
  await staff.goto("/backoffice?status=waiting");
  await expect(await waitingTab()).toHaveText(" 0");
});

test("with JavaScript, a message typed offline is sent once when the connection is back, and new messages appear without a reload", async ({ page, browser, javaScriptEnabled }) => {
  test.skip(!javaScriptEnabled, "sending in place and polling need JavaScript; without it the form posts as above");
  test.setTimeout(180_000);
  const orderId = await paidOrder(page);
  const [row] = await e2eQuery<{ email: string }>("select email from orders where id = $1", [orderId]);
  const staff = await staffPage(browser, true);
  await staff.goto(`/backoffice/orders/${orderId}/thread`);
  await expect(staff.getByText("Сообщений пока нет.")).toBeVisible();

  // The doctor keeps the order's page open.
  await followMailedLink(page, row!.email);
  await expect(page).toHaveURL(new RegExp(`/cabinet/orders/${orderId}$`));
  // What the doctor types is kept in the tab: a reload brings it back.
  await page.getByLabel("Сообщение лаборатории").fill("Черновик врача");
  await page.reload();
  await expect(page.getByLabel("Сообщение лаборатории")).toHaveValue("Черновик врача");

  // Staff lose the connection while sending: the page keeps the text, and sends it once when it is back.
  await staff.context().setOffline(true);
  await staff.getByLabel("Сообщение клинике").fill("Сообщение без связи: уточните шаг 4");
  await staff.getByRole("button", { name: "Отправить" }).click();
  await expect(staff.getByRole("alert").filter({ hasText: /связ/i })).toBeVisible();
  await expect(staff.getByLabel("Сообщение клинике")).toHaveValue("Сообщение без связи: уточните шаг 4");
  await staff.context().setOffline(false);
  await expect(staff.getByText("Сообщение отправлено")).toBeVisible({ timeout: 30_000 });
  await expect(staff.getByLabel("Сообщение клинике")).toHaveValue("");
  const stored = await e2eQuery<{ n: number }>("select count(*)::int as n from order_messages where order_id = $1 and body = $2", [orderId, "Сообщение без связи: уточните шаг 4"]);
  expect(stored[0]!.n).toBe(1);

  // The doctor's open page shows it without a reload.
  await expect(page.getByText("Сообщение без связи: уточните шаг 4")).toBeVisible({ timeout: 20_000 });
});

test("every document kept above is valid HTML (Nu HTML Checker)", async ({ baseURL: _baseURL }, testInfo) => {
  expect(validateKeptDocuments(testInfo), "Nu HTML Checker errors").toEqual([]);
});
