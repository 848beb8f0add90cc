import { expect, test } from "@playwright/test";
import { atStep, orderToCheckout, press } from "./journeys";
import { e2eQuery, embedded } from "./support";

/**
 * Enter in a field moves forward (ADR 057), with JavaScript and without: the forward action is each
 * step form's default button, never "← Назад" (which comes first on the page). What was typed is
 * saved as by the button.
 */

const unique = () => `${Date.now()}-${Math.random().toString(36).slice(2, 6)}`;

test("Enter in the one-line fields of steps 2, 3 and 4 moves forward", async ({ page }) => {
  const email = `enter-${unique()}@clinic.ru`;
  const patient = `Энтер ${unique()}`;
  await page.goto("/order");
  await press(page, "Далее →", 2);

  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Телефон").fill("+7 900 765-43-21");
  await page.getByLabel("Телефон").press("Enter");
  await atStep(page, 3);

  await page.getByLabel("ФИО получателя").fill("Петрова Мария");
  await page.getByLabel("Адрес доставки").fill("Казань, ул. Баумана, 5");
  await page.getByRole("checkbox").check();
  // The address is a text area, where Enter starts a new line; the name is a line of its own.
  await page.getByLabel("ФИО получателя").press("Enter");
  await atStep(page, 4);

  await page.getByLabel("Имя пациента").fill(patient);
  await page.getByLabel("Имя пациента").press("Enter");
  await atStep(page, 5);
  await expect(page.getByText(patient).first()).toBeVisible();

  if (!embedded) {
    const [order] = await e2eQuery<{ email: string; full_name: string; wizard_step: number }>("select email, full_name, wizard_step from orders where email = $1", [email]);
    expect(order).toMatchObject({ email, full_name: "Петрова Мария", wizard_step: 5 });
  }
});

test("Enter does not go back while the step's own forward rule holds it", async ({ page, javaScriptEnabled }) => {
  test.skip(!javaScriptEnabled, "without JavaScript the server answers the step, as the button does");
  await page.goto("/order");
  await press(page, "Далее →", 2);
  await page.getByLabel("E-mail").fill(`hold-${unique()}@clinic.ru`);
  await page.getByLabel("Телефон").fill("+7 900 111-22-33");
  await page.getByLabel("Телефон").press("Enter");
  await atStep(page, 3);
  // Step 3 without the consent (domestic): the forward button is disabled, and so is Enter.
  await page.getByLabel("ФИО получателя").fill("Петрова Мария");
  await page.getByLabel("ФИО получателя").press("Enter");
  await expect(page.getByRole("heading", { level: 2 })).toHaveText("Адрес доставки");
  await atStep(page, 3);
});

test("a field's message goes once it is fixed, and a held forward button says why", async ({ page, javaScriptEnabled }) => {
  test.skip(!javaScriptEnabled, "the page follows what is typed only with JavaScript; without it the server answers each press");
  await page.goto("/order");
  await press(page, "Далее →", 2);
  await page.getByLabel("E-mail").fill("not-an-address");
  await page.getByLabel("Телефон").fill("+7 900 222-33-44");
  await page.getByRole("button", { name: "Далее →", exact: true }).click();
  const message = page.locator("#field-email-error");
  await expect(message).toHaveText("Пожалуйста, укажите корректный email");
  await page.getByLabel("E-mail").fill(`fixed-${unique()}@clinic.ru`);
  await expect(message).toHaveCount(0);
  await atStep(page, 2);

  await page.getByLabel("Телефон").press("Enter");
  await atStep(page, 3);
  // Held without the consent: said beside the button, and tied to it for screen readers.
  const held = page.locator("#forward-held");
  await expect(held).toHaveText("Необходимо согласие на обработку данных");
  await expect(page.getByRole("button", { name: "Далее →", exact: true })).toHaveAttribute("aria-describedby", "forward-held");
  await page.getByRole("checkbox").check();
  await expect(held).toHaveCount(0);
});

test("the summary's 'изменить' links go to their step and back to the summary", async ({ page }) => {
  await orderToCheckout(page, {
    onStep: async (step) => {
      if (step !== 11) return;
      // The phone, from the summary and back.
      await page.getByRole("button", { name: "изменить: Контактные данные" }).click();
      await atStep(page, 2);
      await page.getByLabel("Телефон").fill("+7 900 555-66-77");
      await press(page, "Сохранить и вернуться к сводке", 11);
      await expect(page.locator(".summary-contacts")).toContainText("+7 900 555-66-77");
      // The matrix: its files' step, then its type, then the summary again.
      await page.getByRole("button", { name: "изменить: Смирнова Е., Матрицы" }).click();
      await atStep(page, 5);
      await press(page, "Далее →", 6);
      await page.getByRole("radio", { name: /^Твердая матрица/ }).check();
      await press(page, "Сохранить и вернуться к сводке", 11);
    },
  });
});

