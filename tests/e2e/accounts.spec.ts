import { expect, test } from "@playwright/test";
import { latestOutboxMail } from "../support/mail-text";
import { outbox } from "./support";

/**
 * A clinic signs in with the link from its mail, sees exactly its own orders, filters and searches,
 * changes the notification channel and signs out. Runs with JavaScript on and off.
 */

// Demo clinics with several orders each (app/modules/demo/data.json); one per project so rate limits never meet.
const CLINIC: Record<string, string> = {
  js: "zakaz@ortodont-pro.ru",
  nojs: "info@ulybka-dental.ru",
  "embedded-js": "zakaz@ortodont-pro.ru",
  "embedded-nojs": "info@ulybka-dental.ru",
};

test("a clinic signs in by link, sees its orders and signs out", async ({ page }, testInfo) => {
  const email = CLINIC[testInfo.project.name] ?? "sadykova@kazan-dent.ru";
  await page.goto("/cabinet");
  await expect(page).toHaveURL(/\/auth\?redirectTo=%2Fcabinet/);
  await expect(page.getByRole("heading", { name: "Вход в личный кабинет" })).toBeVisible();

  const sentAt = Date.now();
  await page.getByLabel("E-mail").fill(email);
  await page.getByRole("button", { name: "Отправить ссылку для входа" }).click();
  await expect(page.getByText("Ссылка отправлена.")).toBeVisible();
  await expect(page.getByText(email, { exact: false })).toBeVisible();

  // The outbox is written beside the answer: wait for the mail, however long a busy machine takes.
  await expect.poll(() => latestOutboxMail(outbox, email)?.link, { message: `a sign-in mail for ${email} in ${outbox} after ${sentAt}`, timeout: 30_000 }).toBeTruthy();
  const mail = latestOutboxMail(outbox, email);

  // The link opens a confirmation page; only its button signs in.
  await page.goto(mail!.link.replace(/^https?:\/\/[^/]+/, ""));
  await expect(page.getByText(`Войти как ${email}?`)).toBeVisible();
  await page.getByRole("button", { name: "Войти" }).click();
  await expect(page).toHaveURL(/\/cabinet$/);
  await expect(page.getByRole("heading", { name: "Личный кабинет" })).toBeVisible();
  await expect(page.getByText(email).first()).toBeVisible();

  // Only this clinic's orders, never drafts.
  const cards = page.locator(".order-card");
  expect(await cards.count()).toBeGreaterThan(0);
  await expect(page.locator(".badge-draft")).toHaveCount(0);

  // Filter by status (a tab carrying its count) and search by a name that matches nothing.
  const cancelled = page.locator(".cabinet-tabs").getByRole("link", { name: /^Отменен/ });
  await cancelled.click();
  await expect(page).toHaveURL(/status=cancelled/);
  // The address changes a moment before the page is drawn again; the tab turns current with the new list.
  await expect(cancelled).toHaveAttribute("aria-current", "page");
  const badges = page.locator(".order-card .badge");
  await expect(badges).toHaveCount(Number(await cancelled.locator(".tab-count").textContent()));
  await expect(badges.filter({ hasNotText: /Отменен/ })).toHaveCount(0);
  await page.getByLabel("Поиск по имени клиента или пациента").fill("Несуществующий пациент");
  await page.getByRole("button", { name: "Найти" }).click();
  await expect(page.getByText("Ничего не найдено")).toBeVisible();

  // Change the notification channel.
  await page.goto("/cabinet");
  await page.locator(".channel summary").click();
  await page.getByRole("radio", { name: "WhatsApp" }).check();
  await page.getByRole("button", { name: "Сохранить" }).click();
  await expect(page.locator(".channel summary")).toContainText("WhatsApp");

  // Sign out: the cabinet asks for sign-in again.
  await page.getByRole("button", { name: "Выйти" }).click();
  await expect(page).toHaveURL(/\/$/);
  await page.goto("/cabinet");
  await expect(page).toHaveURL(/\/auth\?redirectTo=%2Fcabinet/);
});
