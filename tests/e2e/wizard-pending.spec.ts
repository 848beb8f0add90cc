import { expect, test } from "@playwright/test";
import { atStep, press, walkToPatientStep } from "./journeys";
import { e2eQuery, embedded } from "./support";

/**
 * From the press of a step's button until the next step shows, the step takes no input (ADR 057):
 * with the server's answer 2 s late, a file chosen 100 ms after "Пропустить" on the matrix step is
 * never chosen — the picker does not open — so nothing is stored under the skipped step and nothing
 * is billed for it. Without JavaScript the same late form is refused by the server (409, nothing
 * stored: tests/integration/wizard/upload-step.test.ts).
 */

const unique = () => `${Date.now()}-${Math.random().toString(36).slice(2, 6)}`;

test("a file chosen while 'Пропустить' is on its way is not taken, stored or billed", async ({ page, javaScriptEnabled }) => {
  test.skip(!javaScriptEnabled, "without JavaScript the browser leaves the page; the server refuses a late form (integration test)");
  const email = `pending-${unique()}@clinic.ru`;
  await walkToPatientStep(page, { next: "Далее →", email: "E-mail", phone: "Телефон", fullName: "ФИО получателя", address: "Адрес доставки", consent: true }, email);
  await page.getByLabel("Имя пациента").fill("Ожидающий П.");
  await press(page, "Далее →", 5);

  // While the step is idle, the picker opens (and is closed without a file).
  const opens = page.waitForEvent("filechooser", { timeout: 3000 });
  await page.locator("#field-files").click();
  await opens;

  // The skip's answer comes 2 s late.
  let delayed = false;
  await page.route("**/order*", async (route) => {
    if (route.request().method() === "POST" && !delayed) {
      delayed = true;
      await new Promise((resolve) => setTimeout(resolve, 2000));
    }
    await route.continue();
  });
  const chooser = page.waitForEvent("filechooser", { timeout: 1500 }).then(
    () => true,
    () => false,
  );
  await page.getByRole("button", { name: "Пропустить", exact: true }).click();
  await page.waitForTimeout(100);
  // The step is pending: marked busy, and its file picker takes no click.
  await expect(page.locator("form.wizard-form")).toHaveAttribute("aria-busy", "true");
  await page.locator("#field-files").click({ force: true, timeout: 1000 });
  expect(await chooser).toBe(false);

  await atStep(page, 7);
  await expect(page.locator(".upload-progress li")).toHaveCount(0);
  if (!embedded) {
    const [patient] = await e2eQuery<{ matrix_files_info: unknown[]; skip_matrix: boolean }>(
      "select p.matrix_files_info, p.skip_matrix from orders_patients p join orders o on o.id = p.order_id where o.email = $1",
      [email],
    );
    expect(patient).toEqual({ matrix_files_info: [], skip_matrix: true });
  }
});
