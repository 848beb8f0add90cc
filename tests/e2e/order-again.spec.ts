import fs from "node:fs";
import { expect, test } from "@playwright/test";
import { atStep, press, signInByMail } from "./journeys";
import { pastOrderWithAligners, sha256, storedObject } from "./order-again-support";
import { e2eQuery } from "./support";

/**
 * "Заказать снова" (ADR 071), with JavaScript on and off: from a patient of a paid order in the
 * cabinet, a replacement of two aligners starts a new order with those two files attached — stored
 * by the storage's own copy, byte for byte, nothing sent from the browser — and reaches payment at
 * the clinic's price.
 */
// Sign-in, the form and five wizard pages to the checkout: more than one page's worth of time on a busy machine.
test.describe.configure({ timeout: 180_000 });

test("a replacement of two aligners from the cabinet reaches payment with the copied files and the clinic's price", async ({ page }, testInfo) => {
  const email = `again-${testInfo.project.name}-${Date.now()}@clinic.ru`;
  const past = await pastOrderWithAligners(email);
  const sent: string[] = [];
  // A file leaves the browser as a named file part of a form, or through the resumable uploads; the
  // upload step's own form is multipart even when it carries no file (its file field empty).
  page.on("request", (request) => {
    if (request.method() === "GET") return;
    if (/\/uploads\/tus/.test(request.url()) || /filename="[^"]+"/.test(request.postDataBuffer()?.toString("latin1") ?? "")) sent.push(request.url());
  });

  await page.goto("/cabinet");
  await signInByMail(page, email);
  await expect(page).toHaveURL(/\/cabinet$/);
  await page.getByText(/^Состав заказа/).click();
  await page.getByRole("link", { name: "Заказать снова для пациента Повторова Полина" }).click();
  await expect(page.getByRole("heading", { name: "Заказать снова: Повторова Полина", level: 1 })).toBeVisible();
  await expect(page.getByRole("radio", { name: /^Замена элайнеров/ })).toBeChecked();
  await page.getByRole("checkbox", { name: /scan-a\.stl/ }).check();
  await page.getByRole("checkbox", { name: /scan-b\.stl/ }).check();
  await page.getByRole("button", { name: "Продолжить оформление" }).click();

  // The wizard opens on the aligners' step with the two copies listed, the third left behind.
  await atStep(page, 7);
  await expect(page.getByText("Новый заказ создан")).toBeVisible();
  const list = page.locator("main");
  await expect(list.getByText("scan-a.stl").first()).toBeVisible();
  await expect(list.getByText("scan-b.stl").first()).toBeVisible();
  await expect(list.getByText("scan-c.stl")).toHaveCount(0);

  const [draft] = await e2eQuery<{ id: string; aligner_files_info: Array<{ originalName: string; storagePath: string; jaw: string; stepNumber: number }> }>(
    "select o.id, p.aligner_files_info from orders o join orders_patients p on p.order_id = o.id where o.email = $1 and o.status = 'draft'",
    [email],
  );
  expect(draft!.aligner_files_info.map((file) => [file.originalName, file.jaw, file.stepNumber])).toEqual([
    ["scan-a.stl", "upper", 3],
    ["scan-b.stl", "lower", 3],
  ]);
  draft!.aligner_files_info.forEach((file, index) => {
    expect(file.storagePath.startsWith(`order_${draft!.id}/`)).toBe(true);
    expect(sha256(fs.readFileSync(storedObject(file.storagePath)))).toBe(past.aligners[index]!.hash);
  });

  // The same steps and checks as any order: material and cut as before, the retainers skipped, the summary, payment.
  await press(page, "Далее →", 8);
  await expect(page.getByRole("radio", { name: /^3-слойный/ })).toBeChecked();
  await press(page, "Далее →", 9);
  await press(page, "Далее →", 10);
  await press(page, "Далее →", 11);
  await page.getByRole("button", { name: "Перейти к оплате" }).click();
  await expect(page).toHaveURL(/\/payment\/sandbox\/sbx_[0-9a-f]{24}$/);
  // 2 × 6 000 ₽ − 10 % + 1 500 ₽ delivery.
  await expect(page.getByText(/12\s300\s₽/).first()).toBeVisible();
  const [priced] = await e2eQuery<{ status: string; total_cost: string }>("select status, total_cost from orders where id = $1", [draft!.id]);
  expect(priced).toEqual({ status: "pending", total_cost: "1230000" });
  expect(sent, "nothing uploaded from the browser").toEqual([]);
});
