import { expect, type Page, test } from "@playwright/test";
import { atStep, orderToCheckout } from "./journeys";

/**
 * Paying through the sandbox provider, with JavaScript on and off (the project decides): the test
 * checkout behaves like a real provider, the return page verifies, and a declined payment leaves the
 * order awaiting payment with a way to pay again. The order's status is read on its payment page
 * (`/pay/{id}`), since the cabinet is another area's journey.
 */

function orderIdOf(page: Page): string {
  const orderId = new URL(page.url()).searchParams.get("orderId");
  expect(orderId).toMatch(/^[0-9a-f-]{36}$/);
  return orderId!;
}

test("a doctor pays in the sandbox and the return page confirms the order paid", async ({ page }) => {
  test.setTimeout(90_000);
  await orderToCheckout(page);
  await page.getByRole("button", { name: "Оплатить (тест)" }).click();
  await expect(page).toHaveURL(/\/payment\/success\?orderId=[0-9a-f-]{36}&r=[\w-]+&paymentId=sbx_/);
  const orderId = orderIdOf(page);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Заказ ${orderId.slice(0, 4).toUpperCase()} оплачен`);

  // The order's own page says paid, and offers nothing more to pay.
  await page.goto(`/pay/${orderId}`);
  await expect(page.locator(".badge")).toHaveText("Оплачен");
  await expect(page.getByText("Этот заказ уже оплачен.")).toBeVisible();
  await expect(page.getByRole("button", { name: "Перейти к оплате" })).toHaveCount(0);

  // The return page's "new order" starts afresh.
  await page.goto(`/payment/success?orderId=${orderId}`);
  await page.getByRole("button", { name: "Новый заказ" }).click();
  await atStep(page, 1);
});

test("a declined payment leaves the order awaiting payment, and paying again succeeds", async ({ page }) => {
  test.setTimeout(90_000);
  await orderToCheckout(page);
  await page.getByRole("button", { name: "Отклонить (тест)" }).click();
  await expect(page).toHaveURL(/\/payment\/success\?orderId=/);
  const orderId = orderIdOf(page);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Оплата заказа ${orderId.slice(0, 4).toUpperCase()} не прошла`);

  await page.getByRole("link", { name: "Оплатить снова" }).click();
  // The return page leads back by the payment link (its token), whoever paid.
  await expect(page).toHaveURL(new RegExp(`/pay/${orderId}\\?t=[\\w-]+$`));
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Оплата заказа №${orderId.slice(0, 6).toUpperCase()}`);
  await expect(page.locator(".badge")).toHaveText("Ожидает оплаты");
  await expect(page.locator(".price-table .total")).toHaveText(/^10\s000\s₽$/);

  await page.getByRole("button", { name: "Перейти к оплате" }).click();
  await expect(page).toHaveURL(/\/payment\/sandbox\/sbx_/);
  await page.getByRole("button", { name: "Оплатить (тест)" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Заказ ${orderId.slice(0, 4).toUpperCase()} оплачен`);
  await page.goto(`/pay/${orderId}`);
  await expect(page.locator(".badge")).toHaveText("Оплачен");
});
