import fs from "node:fs";
import { expect, test } from "@playwright/test";
import { unzipSync } from "fflate";
import { followMailedLink, paidOrder } from "./journeys";
import { e2eQuery } from "./support";

/**
 * A clinic downloads its data from the cabinet (ADR 078), with JavaScript on and off: the archive's
 * data.json holds the paid order, its patient and its files as the database does, and with files
 * asked the stored models are in it at their listed sizes.
 */

interface Archive {
  account: { email: string };
  orders: Array<{ id: string; status: string; patients: Array<{ name: string; files: Array<{ name: string; size: number; inArchive: string | null }> }> }>;
}

test("a clinic downloads its orders, patients and models as one archive", async ({ page }) => {
  test.setTimeout(120_000);
  const orderId = await paidOrder(page);
  const [row] = await e2eQuery<{ email: string }>("select email from orders where id = $1", [orderId]);
  const email = row!.email;
  await followMailedLink(page, email);
  await expect(page).toHaveURL(new RegExp(`/cabinet/orders/${orderId}$`));

  await page.goto("/cabinet");
  await page.getByText("Ваши данные", { exact: true }).click();
  await page.getByLabel("Добавить файлы моделей").check();
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Скачать архив" }).click()]);
  expect(download.suggestedFilename()).toMatch(/^aligner-data-\d{4}-\d{2}-\d{2}-with-files\.zip$/);
  const entries = unzipSync(new Uint8Array(fs.readFileSync((await download.path())!)));
  const archive = JSON.parse(new TextDecoder().decode(entries["data.json"])) as Archive;

  expect(archive.account.email).toBe(email);
  const orders = await e2eQuery<{ id: string; status: string }>("select id, status from orders where email = $1 order by created_at, id", [email]);
  expect(archive.orders.map((order) => [order.id, order.status])).toEqual(orders.map((order) => [order.id, order.status]));
  const paid = archive.orders.find((order) => order.id === orderId)!;
  const patients = await e2eQuery<{ patient_name: string }>("select patient_name from orders_patients where order_id = $1 order by created_at, id", [orderId]);
  expect(paid.patients.map((patient) => patient.name)).toEqual(patients.map((patient) => patient.patient_name));
  const files = paid.patients.flatMap((patient) => patient.files);
  expect(files.length).toBeGreaterThan(0);
  for (const file of files) {
    expect(file.inArchive, file.name).not.toBeNull();
    expect(entries[file.inArchive!]?.length, file.name).toBe(file.size);
  }
});
