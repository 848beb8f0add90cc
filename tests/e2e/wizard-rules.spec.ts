import { expect, test } from "@playwright/test";
import { atStep, press } from "./journeys";
import { e2eQuery, embedded } from "./support";

/**
 * The forward button's rules of the specification (customer side §2), with JavaScript on and off
 * (the project decides): step 1's own messenger contact; step 3 (domestic) "next" disabled without
 * the consent with JavaScript, refused by the server without it; step 4 "next" enabled by a typed
 * name, and adding that patient as it moves on; every new step shown from its top with the focus on
 * its title — on a phone's screen.
 */

test.use({ viewport: { width: 390, height: 700 } });

const unique = () => `${Date.now()}-${Math.random().toString(36).slice(2, 6)}`;
const next = "Далее →";

test("step 1 has its own messenger contact", async ({ page }) => {
  await page.goto("/order");
  await atStep(page, 1);
  const contact = page.locator(".wizard-form").getByRole("link", { name: "Написать нам в мессенджер" });
  await expect(contact).toBeVisible();
  // The same contact as the floating button's.
  expect(await contact.getAttribute("href")).toBe(await page.locator(".messenger-button").getAttribute("href"));
});

test("step 3's consent and step 4's typed name decide the forward button; each new step starts at its top", async ({ page, javaScriptEnabled }) => {
  const email = `rules-${unique()}@clinic.ru`;
  const patient = `Правило ${unique()}`;
  await page.goto("/order");
  await press(page, next, 2);
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Телефон").fill("+7 900 123-45-67");
  // From the bottom of a phone's screen, as a doctor presses "next".
  await page.getByRole("button", { name: next }).scrollIntoViewIfNeeded();
  await press(page, next, 3);
  const title = page.getByRole("heading", { level: 2 });
  await expect(title).toHaveText("Адрес доставки");
  expect(await page.evaluate(() => window.scrollY)).toBe(0);
  if (javaScriptEnabled) await expect(title).toBeFocused();

  await page.getByLabel("ФИО получателя").fill("Иванова Анна Сергеевна");
  await page.getByLabel("Адрес доставки").fill("Москва, ул. Тверская, 1");
  const forward = page.getByRole("button", { name: next });
  if (javaScriptEnabled) {
    await expect(forward).toBeDisabled();
    await page.getByRole("checkbox").check();
    await expect(forward).toBeEnabled();
    await page.getByRole("checkbox").uncheck();
    await expect(forward).toBeDisabled();
  } else {
    // Without JavaScript the server refuses, with what was typed kept.
    await expect(forward).toBeEnabled();
    await press(page, next, 3);
    await expect(page.locator("#field-consent-error")).toBeVisible();
    await expect(page.getByLabel("ФИО получателя")).toHaveValue("Иванова Анна Сергеевна");
  }
  await page.getByRole("checkbox").check();
  await forward.scrollIntoViewIfNeeded();
  await press(page, next, 4);
  expect(await page.evaluate(() => window.scrollY)).toBe(0);
  if (javaScriptEnabled) await expect(page.getByRole("heading", { level: 2 })).toBeFocused();

  // Step 4: no patient yet; with JavaScript "next" waits for a name, and a typed name is enough.
  if (javaScriptEnabled) await expect(forward).toBeDisabled();
  await page.getByLabel("Имя пациента").fill(patient);
  await expect(forward).toBeEnabled();
  await forward.scrollIntoViewIfNeeded();
  await press(page, next, 5);
  expect(await page.evaluate(() => window.scrollY)).toBe(0);
  if (javaScriptEnabled) await expect(page.getByRole("heading", { level: 2 })).toBeFocused();
  await expect(page.getByText(patient).first()).toBeVisible();

  // Back and skip start at the top too.
  await page.getByRole("button", { name: "Пропустить" }).scrollIntoViewIfNeeded();
  await press(page, "Пропустить", 7);
  expect(await page.evaluate(() => window.scrollY)).toBe(0);
  if (javaScriptEnabled) await expect(page.getByRole("heading", { level: 2 })).toBeFocused();
  await page.getByRole("button", { name: "← Назад" }).scrollIntoViewIfNeeded();
  await press(page, "← Назад", 5);
  expect(await page.evaluate(() => window.scrollY)).toBe(0);

  if (!embedded) {
    const rows = await e2eQuery<{ patient_name: string }>("select p.patient_name from orders_patients p join orders o on o.id = p.order_id where o.email = $1", [email]);
    expect(rows).toEqual([{ patient_name: patient }]);
  }
});
