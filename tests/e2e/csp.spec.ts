import { expect, type Page, test } from "@playwright/test";
import { orderToCheckout, signInBackoffice, signInByMail, signInPacker } from "./journeys";

/**
 * The Content-Security-Policy holds in a real browser (ADR 031): every page of every area, with
 * JavaScript on — every step of the wizard with an upload and the 3D preview, the sandbox checkout,
 * the thank-you page, the cabinet, the partner's page, every back-office page, a payment link, the
 * packer's labels — runs without a single blocked script, style, image, connection or form
 * (`securitypolicyviolation`) and without a script error.
 */

interface Watch {
  problems: string[];
  visited: number;
}

async function watch(page: Page): Promise<Watch> {
  const seen: Watch = { problems: [], visited: 0 };
  await page.exposeFunction("reportPolicyViolation", (text: string) => seen.problems.push(`${page.url()}: ${text}`));
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (event) => {
      (window as unknown as { reportPolicyViolation: (text: string) => void }).reportPolicyViolation(`blocked ${event.violatedDirective}: ${event.blockedURI || "inline"} (${event.sourceFile}:${event.lineNumber})`);
    });
  });
  page.on("console", (message) => {
    // A page answering 403 or 404 on purpose is logged by Chromium as a failed load: not a policy matter.
    if (message.type() === "error" && !/Failed to load resource: the server responded with a status of 40[34]/.test(message.text())) seen.problems.push(`${page.url()}: console: ${message.text()}`);
  });
  page.on("pageerror", (error) => seen.problems.push(`${page.url()}: script error: ${error.message}`));
  page.on("load", () => seen.visited++);
  return seen;
}

/** Opens a page and lets its scripts run (hydration, live status) before the next one. */
async function visit(page: Page, path: string) {
  await page.goto(path);
  await page.waitForLoadState("networkidle");
}

test.beforeEach(({ javaScriptEnabled }) => {
  test.skip(!javaScriptEnabled, "the policy is about scripts: the JavaScript-off project has none to block");
});

test("customer pages, the wizard with an upload and the 3D preview, and the sandbox checkout break no policy", async ({ page }) => {
  test.setTimeout(120_000);
  const seen = await watch(page);
  // The watch itself: a script an attacker manages to inject is blocked, and reported.
  await visit(page, "/auth");
  await page.evaluate(() => {
    const injected = document.createElement("script");
    injected.textContent = "window.injected = true";
    document.body.append(injected);
  });
  await expect.poll(() => seen.problems.join("\n")).toContain("blocked script-src");
  expect(await page.evaluate(() => (window as unknown as { injected?: boolean }).injected)).toBeUndefined();
  seen.problems.length = 0;
  for (const path of ["/", "/en", "/de", "/fr", "/es", "/it", "/privacy", "/terms", "/public-offer", "/data-consent", "/refdoc", "/auth", "/thankyou", "/no/such/page"]) await visit(page, path);
  // The language pages remembered the last language; the order walk reads Russian.
  await page.context().clearCookies();
  // Every step of the wizard, aligners' material and cut included.
  await orderToCheckout(page, {
    aligners: true,
    onStep: async (step) => {
      if (step !== 5) return;
      await page.locator(".file-list li").first().getByRole("button", { name: "Просмотр" }).click();
      const dialog = page.getByRole("dialog");
      // Headless Chromium may have no WebGL: either way the viewer's chunk loaded and ran.
      await expect(dialog.getByRole("status")).toHaveText(/Вращайте мышью|Не удалось показать модель/, { timeout: 30_000 });
      await dialog.getByRole("button", { name: "Закрыть" }).click();
    },
  });
  await page.getByRole("button", { name: /Оплатить/ }).click();
  await expect(page).toHaveURL(/\/payment\/success\?/);
  await page.waitForLoadState("networkidle");
  expect(seen.visited, "documents loaded").toBeGreaterThanOrEqual(17);
  expect(seen.problems).toEqual([]);
});

test("the cabinet and the partner's page break no policy", async ({ page }) => {
  test.setTimeout(60_000);
  const seen = await watch(page);
  await visit(page, "/cabinet");
  await signInByMail(page, "zakaz@ortodont-pro.ru");
  await expect(page).toHaveURL(/\/cabinet$/);
  await page.waitForLoadState("networkidle");
  await visit(page, "/partner");
  await visit(page, "/order");
  expect(seen.problems).toEqual([]);
});

test("every back-office page, a payment link and the packer's labels break no policy", async ({ page }) => {
  test.setTimeout(90_000);
  const seen = await watch(page);
  await signInBackoffice(page);
  // An order's own back-office pages (each card's number links to its page).
  const href = await page.locator("article.bo-order h2 a[href^='/backoffice/orders/']").first().getAttribute("href");
  const order = /^\/backoffice\/orders\/[^/#?]+/.exec(href ?? "")?.[0];
  expect(order, "an order on the dashboard").toBeTruthy();
  for (const path of ["/backoffice/clients", "/backoffice/files", "/backoffice/ftp", "/backoffice/translate", "/backoffice/affiliates", "/backoffice/roles", "/backoffice/test", "/send-test", `${order}/tracker`, `${order}/delete`, "/backoffice?view=table", "/backoffice?status=all"])
    await visit(page, path);
  // A payment link as staff send it (the dashboard's button shows it in a toast), opened by its holder.
  await page.getByRole("button", { name: "Создать ссылку на оплату" }).first().click();
  const toast = page.locator(".toast-success");
  await expect(toast).toContainText("/pay/");
  const link = /\/pay\/[0-9a-f-]{36}\?t=[\w-]+/.exec((await toast.textContent()) ?? "")?.[0];
  expect(link, "a payment link in the toast").toBeTruthy();
  await page.context().clearCookies();
  await visit(page, link!);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(/^Оплата заказа №/);
  await signInPacker(page);
  const card = page.locator(".pk-card").filter({ has: page.getByRole("link", { name: "Этикетки на пакеты" }) }).first();
  const id = (await card.getAttribute("id"))!.slice(2);
  // The label pages print themselves by an inline script: it must run.
  let printed = 0;
  await page.exposeFunction("notePrint", () => printed++);
  await page.addInitScript(() => {
    window.print = () => (window as unknown as { notePrint: () => void }).notePrint();
  });
  await visit(page, `/packer/box/${id}`);
  await visit(page, `/packer/bags/${id}`);
  await expect.poll(() => printed).toBe(2);
  expect(seen.problems).toEqual([]);
});
