import { expect, type Page, test } from "@playwright/test";
import { atStep, orderToRetainers, press, skipWithFiles, stlFile } from "./journeys";

/**
 * A declined step stays declined, the summary leads to payment, and an order is never lost in the
 * browser (ADR 087), with JavaScript and without: retainers skipped with a file are set aside — not
 * billed, nothing of them stops payment — and "Вернуть в заказ" restores them; the summary then names
 * the file to declare, a refused payment opens its step, whose button returns to the summary (the
 * refusal's toast gone once there); skipped again, payment bills the matrix only; after the checkout
 * is left, `/order` and the landing offer the order awaiting payment. Editing the address from the
 * summary keeps the consent.
 */

const retainerRow = (page: Page) => page.locator(".price-table tr", { hasText: "Ретейнеры для" });

test("retainers skipped with a file are set aside and not billed; restored, the summary names the file to declare and its link leads there and back; skipped again, payment bills the matrix; the order left at the checkout is offered again", async ({ page }) => {
  test.setTimeout(180_000);
  await orderToRetainers(page);
  // A file whose name gives no jaw: to be declared before payment, if it stays in the order.
  await page.setInputFiles("#field-files", [stlFile("declined-scan.stl")]);
  await press(page, "Загрузить", 10);
  await expect(page.locator(".file-list li", { hasText: "declined-scan.stl" })).toContainText("Укажите челюсть и шаг");
  await skipWithFiles(page);

  // Set aside: listed as not in the order, not billed, nothing still to do.
  const patient = page.locator(".summary-patient");
  await expect(patient).toContainText("Ретейнеры: пропущено");
  await expect(patient.locator(".summary-set-aside")).toContainText("declined-scan.stl");
  await expect(retainerRow(page)).toHaveCount(0);
  await expect(page.getByRole("region", { name: "Перед оплатой осталось" })).toHaveCount(0);
  await expect(page.locator(".price-table .total")).toHaveText(/^10\s000\s₽$/);

  // "Вернуть в заказ": billed again, said so, and the file to declare named with its way there.
  await press(page, /^Вернуть в заказ/, 11);
  await expect(patient).toContainText("Ретейнеры: шаг был пропущен и снова в заказе — проверьте файлы и сумму перед оплатой");
  await expect(retainerRow(page)).toContainText("1 × 1 000 ₽");
  const open = page.getByRole("region", { name: "Перед оплатой осталось" });
  await expect(open).toContainText("Укажите челюсть и номер шага для каждого файла");
  await expect(open).toContainText("Файлы: declined-scan.stl");

  // Payment refused: the step, said why, and its button returns to the summary; the toast goes with its page.
  await page.getByRole("button", { name: "Перейти к оплате" }).click();
  await atStep(page, 10);
  const refusal = page.getByRole("alert").filter({ hasText: "Заказ не заполнен" });
  await expect(refusal).toContainText("Файлы: declined-scan.stl");
  await press(page, "Сохранить и вернуться к сводке", 11);
  await expect(page.getByText("Заказ не заполнен")).toHaveCount(0);
  // The summary's own link goes there and back too.
  await press(page, /^перейти: Смирнова Е\./, 10);
  await page.getByLabel("Челюсть файла declined-scan.stl").selectOption("upper");
  await press(page, "Сохранить и вернуться к сводке", 11);
  await expect(page.getByRole("region", { name: "Перед оплатой осталось" })).toHaveCount(0);
  await expect(retainerRow(page)).toContainText("1 × 1 000 ₽");

  // Declined again from the summary: the matrix alone is paid for.
  await press(page, "изменить: Смирнова Е., Ретейнеры", 10);
  await skipWithFiles(page);
  await expect(retainerRow(page)).toHaveCount(0);
  await page.getByRole("button", { name: "Перейти к оплате" }).click();
  await expect(page).toHaveURL(/\/payment\/sandbox\/sbx_/);
  await expect(page.getByText(/10\s000\s₽/).first()).toBeVisible();
  await expect(page.getByText(/Ретейнеры/)).toHaveCount(0);

  // The checkout left: /order offers the order awaiting payment, to pay or to open.
  await page.goto("/order");
  await atStep(page, 1);
  const offer = page.getByRole("region", { name: "В этом браузере есть незавершённые заказы" });
  await expect(offer).toContainText(/Заказ [0-9A-F]{6} ожидает оплаты · 10\s000\s₽/);
  await offer.getByRole("link", { name: /^Оплатить заказ/ }).click();
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Оплата заказа №");
  // And so does the landing; opened, it is the wizard's order again, at its summary.
  await page.goto("/");
  await page.getByRole("region", { name: "В этом браузере есть незавершённые заказы" }).getByRole("link", { name: /^Открыть заказ/ }).click();
  await atStep(page, 11);
  await expect(page.getByText("Заказ ожидает оплаты.", { exact: false })).toBeVisible();
});

test("the address edited from the summary keeps the consent, and leads back to the summary", async ({ page, javaScriptEnabled }) => {
  test.setTimeout(120_000);
  await orderToRetainers(page);
  await press(page, "Пропустить", 11);
  await press(page, "изменить: Адрес доставки", 3);
  await expect(page.getByRole("checkbox")).toBeChecked();
  await page.getByLabel("Адрес доставки").fill("Москва, ул. Тверская, 2");
  const back = page.getByRole("button", { name: "Сохранить и вернуться к сводке" });
  if (javaScriptEnabled) await expect(back).toBeEnabled();
  await press(page, "Сохранить и вернуться к сводке", 11);
  await expect(page.locator(".summary-contacts")).toContainText("Москва, ул. Тверская, 2");
});
