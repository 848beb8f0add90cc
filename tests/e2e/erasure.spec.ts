import { type Browser, expect, type Page, test } from "@playwright/test";
import { followMailedLink, paidOrder, signInByMail } from "./journeys";
import { e2eQuery } from "./support";

/**
 * A clinic asks for its data to be erased and an admin processes the request (ADR 079), with
 * JavaScript on and off: the clinic's personal data is gone — names, contacts, address, patients,
 * its account — while the paid order's accounting record and its payment lines remain.
 */

const ADMIN = "admin@aligner.local";

async function newPage(browser: Browser, javaScriptEnabled: boolean): Promise<Page> {
  const context = await browser.newContext({ javaScriptEnabled });
  return context.newPage();
}

test("a clinic's erasure request is processed by an admin: its personal data goes, the accounting record stays", async ({ page, browser, javaScriptEnabled }) => {
  test.setTimeout(180_000);
  const orderId = await paidOrder(page);
  const [row] = await e2eQuery<{ email: string }>("select email from orders where id = $1", [orderId]);
  const email = row!.email;
  // The lab made and delivered the order long ago, and its mails went out.
  await e2eQuery("update orders set status = 'completed' where id = $1", [orderId]);
  await e2eQuery("update order_status_history set notified_at = now() where order_id = $1 and notified_at is null", [orderId]);

  // The clinic reads what erasure does, forgets the box, then asks.
  await followMailedLink(page, email);
  await expect(page).toHaveURL(new RegExp(`/cabinet/orders/${orderId}$`));
  await page.goto("/cabinet");
  await page.getByText("Ваши данные", { exact: true }).click();
  await page.getByRole("link", { name: "Удалить мои данные…" }).click();
  await expect(page.getByRole("heading", { name: "Удаление ваших данных", level: 1 })).toBeVisible();
  await expect(page.getByText("Отправленные, выполненные и отменённые заказы: 1")).toBeVisible();
  await page.getByRole("button", { name: "Запросить удаление" }).click();
  await expect(page.getByText("Отметьте, что вы понимаете последствия удаления")).toBeVisible();
  await page.getByLabel(/Я понимаю, что заказы, файлы и доступ к кабинету будут удалены/).check();
  await page.getByRole("button", { name: "Запросить удаление" }).click();
  await expect(page.getByText("Запрос на удаление отправлен")).toBeVisible();
  await expect(page.getByText(/ждёт решения администратора/)).toBeVisible();

  // An admin approves it after the question.
  const admin = await newPage(browser, javaScriptEnabled);
  await admin.goto("/auth?redirectTo=%2Fbackoffice%2Ferasures");
  await signInByMail(admin, ADMIN);
  await expect(admin.getByRole("heading", { name: "Запросы на удаление данных", level: 1 })).toBeVisible();
  const request = admin.getByRole("row").filter({ hasText: email });
  await request.getByRole("link", { name: "Удалить данные" }).click();
  const dialog = admin.getByRole("dialog", { name: "Удалить данные клиники?" });
  await expect(dialog).toContainText(`Все заказы ${email} будут удалены или обезличены`);
  await dialog.getByRole("button", { name: "Удалить данные" }).click();
  await expect(admin.getByText("Данные клиники удалены")).toBeVisible();
  await expect(admin.getByRole("row").filter({ hasText: email })).toHaveCount(0);

  // Nothing of the clinic's person is left; the accounting record is.
  const [order] = await e2eQuery<{ email: string; full_name: string | null; phone: string | null; address: string | null; total_cost: string; anonymised_at: Date | null }>(
    "select email, full_name, phone, address, total_cost, anonymised_at from orders where id = $1",
    [orderId],
  );
  expect(order).toMatchObject({ full_name: null, phone: null, address: null });
  expect(order!.email).toMatch(/^erased-[0-9a-f]{16}@erased\.invalid$/);
  expect(order!.anonymised_at).not.toBeNull();
  expect(Number(order!.total_cost)).toBeGreaterThan(0);
  const patients = await e2eQuery<{ patient_name: string }>("select patient_name from orders_patients where order_id = $1", [orderId]);
  expect(patients.map((patient) => patient.patient_name)).toEqual(patients.map(() => "—"));
  const [payment] = await e2eQuery<{ lines: unknown[]; amount: string }>("select lines, amount from payments where order_id = $1 and status = 'succeeded'", [orderId]);
  expect(payment!.lines.length).toBeGreaterThan(0);
  expect(Number(payment!.amount)).toBe(Number(order!.total_cost));
  expect(await e2eQuery("select id from users where email = $1", [email])).toEqual([]);
  expect(await e2eQuery("select id from orders where email = $1", [email])).toEqual([]);

  // The clinic's session went with its account.
  await page.goto("/cabinet");
  await expect(page).toHaveURL(/\/auth\?redirectTo=%2Fcabinet/);
});
