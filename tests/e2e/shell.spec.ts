import { expect, test } from "@playwright/test";
import { backofficePassword } from "./support";

/** The smoke journey through the shell; runs with JavaScript on and off. */

test("the home page shows the shell in Russian", async ({ page }) => {
  await page.goto("/");
  await expect(page).toHaveTitle(/Aligner Lab/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Элайнеры, матрицы и ретейнеры по вашим STL-моделям");
  await expect(page.locator("header.site-header").getByRole("link", { name: "Войти" })).toBeVisible();
  await expect(page.getByText("Гарантия возврата денег 100%.")).toBeVisible();
  await expect(page.getByRole("heading", { name: "Контакты" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Написать нам в мессенджер" })).toBeVisible();
});

test("the cookie notice goes away once accepted", async ({ page }) => {
  await page.goto("/");
  const notice = page.getByRole("region", { name: "Уведомление о cookie" });
  await expect(notice).toBeVisible();
  await notice.getByRole("button", { name: "Понятно" }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("region", { name: "Уведомление о cookie" })).toHaveCount(0);
  await page.reload();
  await expect(page.getByRole("region", { name: "Уведомление о cookie" })).toHaveCount(0);
});

test("the language picker switches to English and remembers it", async ({ page }) => {
  await page.goto("/");
  await page.locator("header .language-picker summary").click();
  await page.getByRole("button", { name: "English" }).click();
  await expect(page).toHaveURL(/\/en$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Aligners, matrices and retainers from your STL models");
  await expect(page.locator("html")).toHaveAttribute("lang", "en");
  await page.goto("/backoffice/login");
  await expect(page.getByRole("heading", { name: "Control panel" })).toBeVisible();
});

test("an unknown page is the 404 page with a way home", async ({ page }) => {
  const response = await page.goto("/definitely-not-a-page");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Oops! Page not found" })).toBeVisible();
  await page.getByRole("link", { name: "Вернуться на главную" }).click();
  await expect(page).toHaveURL(/\/$/);
});

test("the back-office asks for the password and then shows orders", async ({ page }) => {
  await page.goto("/backoffice");
  await expect(page).toHaveURL(/\/backoffice\/login/);
  await expect(page.getByRole("heading", { name: "Панель управления" })).toBeVisible();
  await expect(page.locator("header.site-header")).toHaveCount(0);
  await expect(page.locator("footer.site-footer")).toHaveCount(0);

  await page.getByLabel("Пароль").fill("not-the-password");
  await page.getByRole("button", { name: "Войти" }).click();
  await expect(page.getByRole("alert")).toHaveText("Неверный пароль. Пожалуйста, попробуйте еще раз.");

  await page.getByLabel("Пароль").fill(backofficePassword());
  await page.getByRole("button", { name: "Войти" }).click();
  await expect(page).toHaveURL(/\/backoffice$/);
  await expect(page.getByRole("heading", { name: "Заказы", level: 1 })).toBeVisible();
  await expect(page.locator("article.bo-order").first()).toBeVisible();
  await expect(page.getByRole("link", { name: "Написать нам в мессенджер" })).toHaveCount(0);
});

test.describe("on a phone", () => {
  test.use({ viewport: { width: 375, height: 740 } });

  test("the menu opens without JavaScript and offers sign-in", async ({ page }) => {
    await page.goto("/");
    await expect(page.locator(".header-nav")).toBeHidden();
    await page.getByLabel("Меню").click();
    await expect(page.locator(".mobile-nav").getByRole("link", { name: "Войти" })).toBeVisible();
  });
});
