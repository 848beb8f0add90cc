import fs from "node:fs";
import path from "node:path";
import { expect, type Page, test } from "@playwright/test";

/**
 * Paying through the sandbox provider, with JavaScript on and off (the project decides): the test
 * checkout behaves like a real provider, the return page verifies, and a declined payment leaves the
 * order awaiting payment with a way to pay again. The order's status is read on its payment page
 * (`/pay/{id}`), since the cabinet is another area's journey.
 */

const FIXTURES = path.resolve("tests/.tmp/stl");

function stlFile(name: string): string {
  fs.mkdirSync(FIXTURES, { recursive: true });
  const file = path.join(FIXTURES, name);
  if (!fs.existsSync(file)) {
    const bytes = Buffer.alloc(84 + 50 * 12);
    bytes.writeUInt32LE(12, 80);
    fs.writeFileSync(file, bytes);
  }
  return file;
}

async function atStep(page: Page, step: number) {
  await expect(page.getByText(new RegExp(`^(Шаг|Step) ${step} (из|of) 11$`))).toBeVisible();
}

async function press(page: Page, name: string, step: number) {
  await page.getByRole("button", { name, exact: true }).click();
  await atStep(page, step);
}

/** A one-patient order (one hard matrix) up to "Перейти к оплате"; lands on the sandbox checkout. */
async function orderToCheckout(page: Page) {
  await page.goto("/order");
  await atStep(page, 1);
  await press(page, "Далее →", 2);
  await page.getByLabel("E-mail").fill(`pay-e2e-${Date.now()}-${Math.random().toString(36).slice(2, 6)}@clinic.ru`);
  await page.getByLabel("Телефон").fill("+7 900 123-45-67");
  await press(page, "Далее →", 3);
  await page.getByLabel("ФИО получателя").fill("Иванова Анна Сергеевна");
  await page.getByLabel("Адрес доставки").fill("Москва, ул. Тверская, 1");
  await page.getByRole("checkbox").check();
  await press(page, "Далее →", 4);
  await page.getByLabel("Имя пациента").fill("Смирнова Е.");
  await press(page, "Добавить пациента", 4);
  await press(page, "Далее →", 5);
  await page.setInputFiles("#field-files", [stlFile("pay-matrix.stl")]);
  await press(page, "Загрузить", 5);
  await press(page, "Далее →", 6);
  await page.getByRole("radio", { name: /^Твердая матрица/ }).check();
  await press(page, "Далее →", 7);
  await press(page, "Пропустить", 10);
  await press(page, "Пропустить", 11);
  await page.getByRole("button", { name: "Перейти к оплате" }).click();
  await expect(page).toHaveURL(/\/payment\/sandbox\/sbx_[0-9a-f]{24}$/);
  await expect(page.getByText("ТЕСТОВАЯ ОПЛАТА.")).toBeVisible();
  await expect(page.getByText(/10\s000\s₽/).first()).toBeVisible();
}

function orderIdOf(page: Page): string {
  const orderId = new URL(page.url()).searchParams.get("orderId");
  expect(orderId).toMatch(/^[0-9a-f-]{36}$/);
  return orderId!;
}

test("a doctor pays in the sandbox and the return page confirms the order paid", async ({ page }) => {
  test.setTimeout(90_000);
  await orderToCheckout(page);
  await page.getByRole("button", { name: "Оплатить (тест)" }).click();
  await expect(page).toHaveURL(/\/payment\/success\?orderId=[0-9a-f-]{36}&paymentId=sbx_/);
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
  await expect(page).toHaveURL(new RegExp(`/pay/${orderId}$`));
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
