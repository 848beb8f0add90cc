import { expect, test } from "@playwright/test";
import { followMailedLink, paidOrder } from "./journeys";
import { e2eQuery } from "./support";

/**
 * After the payment (ADR 070), with JavaScript on and off: the payment page leads to the order in the
 * cabinet — through the mailed sign-in link when the payer is not signed in, at once when they are —
 * and a shipped order shows its tracking link and takes "Посылка получена".
 */

const number = (orderId: string) => orderId.slice(0, 6).toUpperCase();

async function emailOf(orderId: string): Promise<string> {
  const [row] = await e2eQuery<{ email: string }>("select email from orders where id = $1", [orderId]);
  return row!.email;
}

test("pay, then the payment page's link: the mailed sign-in opens the order, and signed in it opens at once", async ({ page }) => {
  test.setTimeout(120_000);
  const orderId = await paidOrder(page);
  const email = await emailOf(orderId);
  await expect(page.getByText(`Мы отправили ссылку для входа на ${email[0]}…@clinic.ru`)).toBeVisible();

  // In the mail: the link signs in and lands on the order's own page.
  await followMailedLink(page, email);
  await expect(page).toHaveURL(new RegExp(`/cabinet/orders/${orderId}$`));
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Заказ ${number(orderId)}`);
  await expect(page.locator(".timeline")).toContainText("Заказ оформлен");
  await expect(page.locator(".timeline")).toContainText("Оплачен");
  await expect(page.getByText("Оплачено:")).toBeVisible();

  // Signed in now: the payment page links straight to the order.
  await page.goto(`/payment/success?orderId=${orderId}`);
  await page.getByRole("link", { name: "Открыть заказ в личном кабинете" }).click();
  await expect(page).toHaveURL(new RegExp(`/cabinet/orders/${orderId}$`));

  // The inbox: the order under "Оплачен", its tab counting it, its card naming the patient.
  await page.goto("/cabinet");
  const paidTab = page.locator(".cabinet-tabs").getByRole("link", { name: /Оплачен/ });
  await expect(paidTab.locator(".tab-count")).toHaveText("1");
  await paidTab.click();
  await expect(page.locator(".order-card")).toHaveCount(1);
  await expect(page.locator(".order-card .order-patients")).toContainText("Пациенты:");
});

test("a status mail's link opens the order after sign-in; a shipped parcel can be followed and marked received", async ({ page }) => {
  test.setTimeout(120_000);
  const orderId = await paidOrder(page);
  const email = await emailOf(orderId);
  // Staff ship it with a carrier and a tracking number (the back-office's own journeys cover that form).
  await e2eQuery("update orders set status = 'shipped', tracking_number = 'E2E123456RU', carrier = 'cdek' where id = $1", [orderId]);
  await e2eQuery(
    "insert into order_status_history (order_id, from_status, to_status, actor, tracking_number, carrier, notified_at) values ($1, 'paid', 'processing', 'staff', null, null, now()), ($1, 'processing', 'shipped', 'staff', 'E2E123456RU', 'cdek', now())",
    [orderId],
  );

  // The status mail's link, opened in a browser that is not signed in: sign-in, then the order.
  await page.context().clearCookies();
  await page.goto(`/cabinet/orders/${orderId}`);
  await expect(page).toHaveURL(/\/auth\?redirectTo=/);
  await page.getByLabel("E-mail").fill(email);
  await page.getByRole("button", { name: "Отправить ссылку для входа" }).click();
  await expect(page.getByText("Ссылка отправлена.")).toBeVisible();
  await followMailedLink(page, email);
  await expect(page).toHaveURL(new RegExp(`/cabinet/orders/${orderId}$`));

  const follow = page.getByRole("link", { name: "Отследить посылку" }).first();
  await expect(follow).toHaveAttribute("href", "https://www.cdek.ru/ru/tracking/?order_id=E2E123456RU");
  await page.getByRole("button", { name: "Посылка получена" }).click();
  await expect(page.getByText("Отметили: посылка получена")).toBeVisible();
  await expect(page.locator(".timeline")).toContainText("Посылка получена");
  await expect(page.getByRole("button", { name: "Посылка получена" })).toHaveCount(0);
  const [row] = await e2eQuery<{ parcel_received_by: string | null }>("select parcel_received_by from orders where id = $1", [orderId]);
  expect(row!.parcel_received_by).toBe(email);
});
