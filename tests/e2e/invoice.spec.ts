import { expect, test } from "@playwright/test";
import { signInBackoffice, signInByMail } from "./journeys";
import { askForInvoice, pendingOrderInCabinet } from "./invoice-support";
import { e2eQuery } from "./support";

/**
 * A clinic pays an order by bank transfer (ADR 072), with JavaScript on and off: it asks for a
 * «Счёт на оплату» in its cabinet (a wrong ИНН is said in place first), prints it — one A4 page with
 * the lab's requisites, the buyer, the lines and the total — and once staff record the transfer, after
 * a question, the order is paid and its files wait for the file server as after a card payment. Only
 * a staff member signed in as themselves records a transfer: the shared password is told why not.
 */

test("a bank-transfer invoice is printed, marked paid by staff, and the order's files then go to the file server", async ({ page, browser, javaScriptEnabled }) => {
  test.setTimeout(180_000);
  const { orderId } = await pendingOrderInCabinet(page, javaScriptEnabled);

  // The clinic's company, first with a mistyped ИНН.
  await askForInvoice(page, "ООО «Улыбка»", "7707083894");
  await expect(page.getByText("В ИНН ошибка: проверьте цифры")).toBeVisible();
  await expect(page.getByLabel("Название компании или ИП")).toHaveValue("ООО «Улыбка»");
  await expect(page.getByRole("textbox", { name: "ИНН", exact: true })).toHaveAttribute("aria-invalid", "true");
  expect(await e2eQuery("select id from invoices where order_id = $1", [orderId])).toEqual([]);
  await askForInvoice(page, "ООО «Улыбка»", "7707083893");
  await expect(page).toHaveURL(new RegExp(`/cabinet/orders/${orderId}/invoices/[0-9a-f-]{36}$`));

  // The printable page: requisites, buyer, lines, total, purpose.
  const [invoice] = await e2eQuery<{ id: string; number: string; total: string; lines: Array<{ description: string }> }>("select id, number, total, lines from invoices where order_id = $1", [orderId]);
  const heading = page.getByRole("heading", { level: 1 });
  await expect(heading).toHaveText(new RegExp(`^Счёт на оплату № ${invoice!.number} от \\d\\d\\.\\d\\d\\.\\d{4}$`));
  const sheet = page.locator("article.invoice");
  for (const text of ["ООО «Элайнер Лаб» (демо-реквизиты)", "ДЕМО-БАНК (демо)", "044500000", "40702810000000000001", "30101810000000000000", "7700000016 / 770001001", "ООО «Улыбка», ИНН 7707083893", "Без НДС", "Реквизиты демонстрационные"]) {
    await expect(sheet).toContainText(text);
  }
  expect(invoice!.lines.length).toBeGreaterThan(0);
  for (const line of invoice!.lines) await expect(sheet.getByRole("cell", { name: line.description, exact: true })).toBeVisible();
  await expect(sheet).toContainText(/Всего к оплате:\s*10\s000,00/);
  await expect(sheet).toContainText(new RegExp(`Назначение платежа:\\s*оплата заказа № ${orderId.slice(0, 6).toUpperCase()} по счёту № ${invoice!.number}`));
  if (javaScriptEnabled) await expect(sheet.getByRole("button", { name: "Распечатать" })).toBeVisible();
  else await expect(sheet.getByText("Чтобы распечатать счёт, нажмите Ctrl+P")).toBeVisible();
  // In print: the sheet alone, on one A4 page.
  await page.emulateMedia({ media: "print" });
  await expect(page.locator(".site-header")).toBeHidden();
  await expect(page.locator(".invoice-actions")).toBeHidden();
  await expect(heading).toBeVisible();
  // page.pdf prints with the print media: back from the emulation first.
  await page.emulateMedia({ media: null });
  const pdf = (await page.pdf({ preferCSSPageSize: true })).toString("latin1");
  expect(pdf.match(/\/Type\s*\/Page\b(?!s)/g), "pages of the printed invoice").toHaveLength(1);
  const [width, height] = /\/MediaBox\s*\[\s*0\s+0\s+([\d.]+)\s+([\d.]+)\s*\]/.exec(pdf)!.slice(1).map(Number);
  expect(Math.abs(width! - 595.3), "A4 width in points").toBeLessThan(2);
  expect(Math.abs(height! - 841.9), "A4 height in points").toBeLessThan(2);

  // With the shared password staff see the invoice, but not the control: a transfer is recorded under a person's name (ADR 083).
  const shared = await (await browser.newContext({ javaScriptEnabled })).newPage();
  await signInBackoffice(shared);
  await shared.goto(`/backoffice/orders/${orderId}`);
  const listed = shared.getByRole("region", { name: "Счета на оплату" });
  await expect(listed).toContainText("ООО «Улыбка»");
  await expect(listed).toContainText("Оплату по счёту отмечает сотрудник, вошедший со своим e-mail");
  await expect(listed.getByRole("link", { name: "Отметить оплату по счёту" })).toHaveCount(0);
  await shared.context().close();

  // A staff member signed in with their own address finds it on the order's page and records the transfer after a question.
  const office = await (await browser.newContext({ javaScriptEnabled })).newPage();
  await office.goto(`/auth?redirectTo=${encodeURIComponent(`/backoffice/orders/${orderId}`)}`);
  await signInByMail(office, "admin@aligner.local");
  await expect(office).toHaveURL(new RegExp(`/backoffice/orders/${orderId}$`));
  const invoices = office.getByRole("region", { name: "Счета на оплату" });
  await expect(invoices).toContainText("ООО «Улыбка»");
  await expect(invoices).toContainText("7707083893");
  await invoices.getByRole("link", { name: "Отметить оплату по счёту" }).click();
  const dialog = office.getByRole("dialog", { name: `Отметить оплату по счёту № ${invoice!.number}?` });
  await expect(dialog).toContainText(/Перевод 10\s000\s₽ от ООО «Улыбка» \(ИНН 7707083893\)/);
  await dialog.getByRole("button", { name: "Да, перевод поступил" }).click();
  await expect(office.getByText("Оплата по счёту отмечена", { exact: true })).toBeVisible();
  await expect(office.locator(".bo-order-page-head .badge")).toHaveText("Оплачен");
  await expect(invoices).toContainText(/Оплата отмечена .+: admin@aligner\.local/);
  await expect(invoices.getByRole("link", { name: "Отметить оплату по счёту" })).toHaveCount(0);
  await office.getByRole("link", { name: `№ ${invoice!.number}` }).click();
  await expect(office.getByRole("heading", { level: 2, name: new RegExp(`^Счёт на оплату № ${invoice!.number}`) })).toBeVisible();
  await expect(office.locator("article.invoice")).toContainText(/Оплата по счёту отмечена \d\d\.\d\d\.\d{4}: admin@aligner\.local/);
  await office.context().close();

  // The order is paid as after a card, and its files are now due to the file server.
  const [order] = await e2eQuery<{ status: string; paid_at: Date | null }>("select status, paid_at from orders where id = $1", [orderId]);
  expect(order).toMatchObject({ status: "paid" });
  expect(order!.paid_at).not.toBeNull();
  const [recorded] = await e2eQuery<{ paid_at: Date | null; paid_by: string | null }>("select paid_at, paid_by from invoices where id = $1", [invoice!.id]);
  expect(recorded!.paid_at).not.toBeNull();
  expect(recorded!.paid_by).toBe("admin@aligner.local");
  const queue = await e2eQuery<{ file_type: string; due: boolean }>(
    "select q.file_type, (o.status in ('paid', 'processing', 'shipped', 'completed') and q.removed_at is null) as due from ftp_uploads_queue q join orders o on o.id = q.order_id where q.order_id = $1",
    [orderId],
  );
  expect(queue.length, "the order's files in the file-server queue").toBeGreaterThan(0);
  expect(queue.every((entry) => entry.due)).toBe(true);

  // The clinic sees its order paid by the transfer.
  await page.goto(`/cabinet/orders/${orderId}`);
  await expect(page.locator(".order-card-head .badge")).toHaveText("Оплачен");
  await expect(page.getByText(`Перевод по счёту № ${invoice!.number}`)).toBeVisible();
  await expect(page.getByRole("button", { name: "Получить счёт" })).toHaveCount(0);
});
