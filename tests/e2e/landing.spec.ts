import { expect, type Page, test } from "@playwright/test";

/**
 * The public face in the browser (issue "public face"): the landing's sections and calls, the video
 * that loads only when asked, the phone layout, the international market, partner links and the
 * legal pages. Every journey runs with JavaScript on and off (projects js and nojs).
 */

const PORT = process.env.E2E_PORT ?? (process.env.E2E_TARGET === "embedded" ? 3220 : 3210);

/** Requests for the production film, counted from the start of the page. */
function watchVideoRequests(page: Page) {
  const requests: string[] = [];
  page.on("request", (request) => {
    if (request.url().endsWith(".webm")) requests.push(request.url());
  });
  return requests;
}

test("the landing shows every section and the pricing call starts a fresh order", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Элайнеры, матрицы и ретейнеры по вашим STL-моделям");
  for (const name of ["Почему производят у нас", "Как мы изготавливаем элайнеры", "Материалы", "Гарантии и возврат", "Цены", "Партнёрская программа", "Готовы отправить первый заказ?"]) {
    await expect(page.getByRole("heading", { level: 2, name })).toBeVisible();
  }
  await expect(page.locator("#process li")).toHaveCount(6);
  await expect(page.locator(".equipment-card")).toHaveCount(4);

  await page.getByRole("link", { name: "Посмотреть цены" }).click();
  await expect(page).toHaveURL(/#pricing$/);
  const pricing = page.locator("#pricing");
  await expect(pricing.getByRole("row", { name: /Элайнер 1-слойный/ })).toContainText("900");
  await expect(pricing.getByRole("heading", { name: /Заказ от 10\s000\s₽/ })).toBeVisible();
  await expect(pricing.getByRole("link", { name: "Задать вопрос в WhatsApp" })).toHaveAttribute("href", /^https:\/\/wa\.me\//);

  // The demo data overrides nothing in Russian: the spec's button text.
  await pricing.getByRole("button", { name: "Оформить заказ" }).click();
  await expect(page).toHaveURL(/\/order$/);
  await expect(page.getByText(/^Шаг 1 из 11$/)).toBeVisible();
});

test("the guarantee section's button leads to the contacts", async ({ page }) => {
  await page.goto("/");
  await page.locator("#guarantees").getByRole("link", { name: "Связаться с нами" }).click();
  await expect(page).toHaveURL(/#contacts$/);
  await expect(page.getByRole("heading", { name: "Контакты" })).toBeInViewport();
});

test("the production film loads nothing until asked for, then plays in place", async ({ page }) => {
  const requests = watchVideoRequests(page);
  await page.goto("/");
  const poster = page.locator("summary.video-poster");
  await poster.scrollIntoViewIfNeeded();
  await page.waitForLoadState("networkidle");
  expect(requests).toEqual([]);
  await expect(page.locator("video")).toBeHidden();
  await poster.click();
  const player = page.locator("video");
  await expect(player).toBeVisible();
  await expect(poster).toBeHidden();
  // Opened is not asked yet: the player fetches nothing before play.
  await page.waitForTimeout(500);
  expect(requests).toEqual([]);
  // Play from the keyboard (the native controls live in a shadow tree).
  await player.focus();
  await page.keyboard.press("Space");
  await expect.poll(() => requests.length).toBeGreaterThan(0);
});

test("the landing and the legal pages ship no JavaScript", async ({ page }) => {
  const scripts: string[] = [];
  page.on("request", (request) => {
    if (request.resourceType() === "script") scripts.push(request.url());
  });
  for (const path of ["/", "/en", "/privacy", "/public-offer"]) await page.goto(path);
  expect(scripts).toEqual([]);
});

test.describe("on a phone", () => {
  test.use({ viewport: { width: 375, height: 740 } });

  test("the final call is the short one, nothing is wider than the screen, and touch targets are at least 44 px", async ({ page }) => {
    await page.goto("/");
    await expect(page.locator(".final-cta .cta-short")).toBeVisible();
    await expect(page.locator(".final-cta .cta-long")).toBeHidden();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    for (const target of await page.locator("main .button, main button, .site-header summary").all()) {
      if (!(await target.isVisible())) continue;
      const box = await target.boundingBox();
      expect(box!.height, await target.innerText()).toBeGreaterThanOrEqual(44);
    }
    await page.getByLabel("Меню").click();
    await expect(page.locator(".mobile-nav").getByRole("link", { name: "Войти" })).toBeVisible();
  });
});

test("the landing speaks German at /de with the overridden order button of the demo data", async ({ page }) => {
  await page.goto("/de");
  await expect(page.locator("html")).toHaveAttribute("lang", "de");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Aligner, Matrizen und Retainer nach Ihren STL-Modellen");
  await expect(page.locator("#pricing").getByRole("button", { name: "Bestellung aufgeben" })).toBeVisible();
  await expect(page.locator('link[rel="alternate"][hreflang="x-default"]')).toHaveAttribute("href", new RegExp(`:${PORT}/$`));
});

test("a partner link shows the landing and keeps the code", async ({ page, context }) => {
  const response = await page.goto("/nevsky");
  expect(response?.status()).toBe(200);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  expect((await context.cookies()).map((cookie) => cookie.name)).toContain("partner");
  const unknown = await page.goto("/QQQQQQ");
  expect(unknown?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Oops! Page not found" })).toBeVisible();
});

test("a legal page reads as a document and leads back home", async ({ page }) => {
  await page.goto("/");
  await page.getByRole("link", { name: "Публичная оферта" }).click();
  await expect(page).toHaveURL(/\/public-offer$/);
  await expect(page.getByRole("heading", { level: 1, name: "Публичная оферта" })).toBeVisible();
  await page.getByRole("link", { name: "7. Гарантия возврата денег" }).click();
  await expect(page.getByRole("heading", { level: 2, name: "7. Гарантия возврата денег" })).toBeInViewport();
  await expect(page.getByText("расходы на обратную пересылку несёт Заказчик;")).toBeVisible();
  await page.getByRole("link", { name: "Вернуться на главную" }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Элайнеры, матрицы и ретейнеры по вашим STL-моделям");
});

test.describe("on the international market", () => {
  // playwright.config.ts resolves this host to loopback.
  test.use({ baseURL: `http://aligners-e2e.com:${PORT}` });

  test("the landing is English with euro prices and without the two domestic sections or legal links", async ({ page }) => {
    await page.goto("/");
    await expect(page.locator("html")).toHaveAttribute("lang", "en");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Aligners, matrices and retainers from your STL models");
    await expect(page.locator("#pricing").getByRole("row", { name: /Single-layer aligner/ })).toContainText("€13.90");
    await expect(page.locator("#guarantees, #partners")).toHaveCount(0);
    await expect(page.getByText("Soft matrix")).toHaveCount(0);
    await expect(page.getByRole("link", { name: "Terms of sale" })).toHaveCount(0);
    await expect(page.getByRole("link", { name: "Privacy policy" })).toBeVisible();
    // The demo data overrides "Оформить заказ" in English.
    await page.locator("#pricing").getByRole("button", { name: "Place an order" }).click();
    await expect(page.getByText(/^Step 1 of 11$/)).toBeVisible();
  });
});
