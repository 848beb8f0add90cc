import { expect, type Page, test } from "@playwright/test";
import { atStep, pageSettled, press, signInBackoffice, signInByMail as signIn, watchIdleWork } from "./journeys";

/**
 * Checks in the browser before the round trip (ADR 053): with JavaScript, a wrong e-mail, an empty
 * required field and an over-long name are said at the field at once, and the browser sends
 * nothing — every request from the moment the page settled is counted. Without JavaScript the same
 * posts reach the server, which answers with the same words at the same fields.
 *
 * The checks reach the page after it (ADR 053, fetched when it is first idle): each count starts once
 * the page has settled (`pageSettled`), so their chunks are neither counted as the form's requests nor
 * missing when the form is sent.
 */

test.beforeEach(({ page }) => watchIdleWork(page));

/** Every request the page makes from now on. */
function countRequests(page: Page) {
  const seen: string[] = [];
  page.on("request", (request) => seen.push(`${request.method()} ${request.url()}`));
  return seen;
}

test("the partner page says a wrong e-mail, an empty name and an over-long name at the field", async ({ page }, testInfo) => {
  const javascript = testInfo.project.use.javaScriptEnabled !== false;
  const email = `checks-${testInfo.project.name}-${Date.now()}@clinic.ru`;
  await page.goto("/partner");
  await signIn(page, email);
  await expect(page).toHaveURL(/\/partner$/);
  await page.getByRole("button", { name: "Получить партнёрский код" }).click();
  await expect(page.getByLabel("Имя или название организации")).toBeVisible();
  await pageSettled(page, javascript);
  const requests = countRequests(page);

  const name = page.getByLabel("Имя или название организации");
  const saveName = page.getByRole("button", { name: "Сохранить имя" });
  // An empty required field.
  await name.fill("");
  await saveName.click();
  await expect(page.getByText("Имя не может быть пустым")).toBeVisible();
  await expect(name).toHaveAttribute("aria-invalid", "true");
  await expect(name).toHaveAttribute("aria-describedby", "partner-name-error");

  // An over-long name: refused, kept as typed, never cut.
  const long = "Я".repeat(201);
  await name.fill(long);
  await saveName.click();
  await expect(page.getByText("Слишком длинный текст — сократите его")).toBeVisible();
  await expect(name).toHaveAttribute("aria-invalid", "true");
  await expect(name).toHaveValue(long);

  // A wrong e-mail.
  const contactEmail = page.getByLabel("E-mail для связи");
  await contactEmail.fill("not-an-address");
  await page.getByLabel("Телефон").fill("+7 900 000-00-00");
  await page.getByRole("checkbox", { name: /Подтверждаю ознакомление с/ }).check();
  await page.getByRole("button", { name: "Сохранить контакты" }).click();
  await expect(page.getByText("Укажите корректный e-mail")).toBeVisible();
  await expect(page.getByRole("alert").filter({ hasText: "Заполните все поля" })).toBeVisible();
  await expect(contactEmail).toHaveAttribute("aria-invalid", "true");
  await expect(contactEmail).toHaveValue("not-an-address");

  if (javascript) {
    // Said in the browser: nothing went to the server.
    expect(requests).toEqual([]);
  } else {
    // Said by the server: three form posts, each answered with the page and its field errors.
    expect(requests.filter((request) => request.startsWith("POST "))).toHaveLength(3);
  }

  // A corrected field clears its error; the server still decides and saves.
  await name.fill("Клиника «Улыбка»");
  await saveName.click();
  await expect(page.getByRole("status").filter({ hasText: "Имя сохранено" })).toBeVisible();
  await expect(name).not.toHaveAttribute("aria-invalid", "true");
});

test("the sign-in page says an empty and a wrong e-mail, and a code that is no code, at the field", async ({ page }, testInfo) => {
  const javascript = testInfo.project.use.javaScriptEnabled !== false;
  await page.goto("/auth");
  await pageSettled(page, javascript);
  const requests = countRequests(page);

  const email = page.getByLabel("E-mail");
  const send = page.getByRole("button", { name: "Отправить ссылку для входа" });
  await send.click();
  await expect(page.getByText("Пожалуйста, укажите email")).toBeVisible();
  await expect(email).toHaveAttribute("aria-invalid", "true");
  await expect(email).toHaveAttribute("aria-describedby", "auth-email-error");

  await email.fill("not-an-address");
  await send.click();
  await expect(page.getByText("Пожалуйста, укажите корректный email")).toBeVisible();
  await expect(email).toHaveValue("not-an-address");

  if (javascript) expect(requests).toEqual([]);
  else expect(requests.filter((request) => request.startsWith("POST "))).toHaveLength(2);

  // The code form, for an address a link went to: five digits are no code.
  await page.goto("/auth?sent=doctor%40clinic.ru");
  await pageSettled(page, javascript);
  const codeRequests = countRequests(page);
  const code = page.getByLabel("Код из письма");
  await code.fill("12345");
  await page.getByRole("button", { name: "Войти по коду" }).click();
  await expect(page.getByText("Неверный или устаревший код")).toBeVisible();
  await expect(code).toHaveAttribute("aria-invalid", "true");
  if (javascript) expect(codeRequests).toEqual([]);
  else expect(codeRequests.filter((request) => request.startsWith("POST "))).toHaveLength(1);
});

test("the clients' conditions say a wrong e-mail, an empty one and an out-of-range number at the field", async ({ page }, testInfo) => {
  const javascript = testInfo.project.use.javaScriptEnabled !== false;
  const client = `conditions-${testInfo.project.name}-${Date.now()}@clinic.ru`;
  const url = `/backoffice/clients?all=1&client=${encodeURIComponent(client)}`;
  await signInBackoffice(page);
  await page.goto(url);
  await pageSettled(page, javascript);
  const dialog = page.getByRole("dialog", { name: "Персональные условия" });
  const save = dialog.getByRole("button", { name: "Сохранить" });
  // The client's address is the page's own hidden field: a broken or forged page is what sends another.
  const forgeEmail = (value: string) => dialog.locator('input[name="email"]').evaluate((input: HTMLInputElement, typed) => (input.value = typed), value);
  const saidAt = async (label: string, message: string) => {
    const control = dialog.getByLabel(label, { exact: true });
    await expect(control).toHaveAttribute("aria-invalid", "true");
    const described = await control.getAttribute("aria-describedby");
    // The error comes first among what describes the field; a price's base-price hint may follow it.
    const [error] = described?.split(" ") ?? [];
    expect(error).toMatch(/-error$/);
    await expect(dialog.locator(`[id="${error}"]`)).toHaveText(message);
  };
  let requests = countRequests(page);

  // An empty required field and out-of-range numbers, at their fields; the address at the form's.
  await forgeEmail("");
  await dialog.getByLabel("Скидка, %").fill("150");
  await dialog.getByLabel("Цена матрицы").fill("-5");
  await dialog.getByLabel("Цена элайнера (общая)").fill("12 abc");
  await save.click();
  await saidAt("Скидка, %", "Скидка не может быть больше 100");
  await saidAt("Цена матрицы", "Значение не может быть меньше 0");
  await saidAt("Цена элайнера (общая)", "Введите число");
  await expect(dialog.getByRole("alert").filter({ hasText: "Некорректный e-mail клиента" })).toBeVisible();
  // What was typed stays.
  await expect(dialog.getByLabel("Скидка, %")).toHaveValue("150");
  await expect(dialog.getByLabel("Цена элайнера (общая)")).toHaveValue("12 abc");
  if (javascript) expect(requests).toEqual([]);
  else expect(requests.filter((request) => request.startsWith("POST "))).toHaveLength(1);

  // A malformed address, on a fresh page.
  await page.goto(url);
  await pageSettled(page, javascript);
  requests = countRequests(page);
  await expect(dialog.getByRole("alert")).toHaveCount(0);
  await forgeEmail("not-an-address");
  await save.click();
  await expect(dialog.getByRole("alert").filter({ hasText: "Некорректный e-mail клиента" })).toBeVisible();
  if (javascript) expect(requests).toEqual([]);
  else expect(requests.filter((request) => request.startsWith("POST "))).toHaveLength(1);

  // Corrected, the server decides and saves.
  await forgeEmail(client);
  await dialog.getByLabel("Скидка, %").fill("4");
  await save.click();
  await expect(page.getByRole("status").filter({ hasText: "Условия для клиента сохранены" })).toBeVisible();
});

test("the translations page says empty texts and a lost placeholder at the field", async ({ page }, testInfo) => {
  const javascript = testInfo.project.use.javaScriptEnabled !== false;
  await signInBackoffice(page);
  await page.goto("/backoffice/translate");
  await pageSettled(page, javascript);
  const add = page.locator("details.translation-add");
  if (!(await add.evaluate((details: HTMLDetailsElement) => details.open))) await add.getByText("Добавить перевод", { exact: true }).click();
  const requests = countRequests(page);
  const original = add.getByLabel("Оригинальный текст (русский)");
  const translation = add.getByLabel("Перевод", { exact: true });
  const saidAt = async (control: typeof original, message: string) => {
    await expect(control).toHaveAttribute("aria-invalid", "true");
    await expect(add.locator(`[id="${await control.getAttribute("aria-describedby")}"]`)).toHaveText(message);
  };

  // Empty required fields, each said at itself.
  await add.getByRole("button", { name: "Добавить", exact: true }).click();
  await saidAt(original, "Заполните оригинальный текст и перевод");
  await saidAt(translation, "Заполните оригинальный текст и перевод");

  // A translation without the original's placeholder, said at the translation with their names.
  await original.fill("Заказ от {{amount}}");
  await add.getByLabel("Язык перевода").selectOption("de");
  await translation.fill("Bestellungen ab");
  await add.getByRole("button", { name: "Добавить", exact: true }).click();
  await saidAt(translation, "Перевод должен содержать те же подстановки, что и оригинал: {{amount}}");
  await expect(original).not.toHaveAttribute("aria-invalid", "true");
  await expect(translation).toHaveValue("Bestellungen ab");

  if (javascript) expect(requests).toEqual([]);
  else expect(requests.filter((request) => request.startsWith("POST "))).toHaveLength(2);
});

test("the order's steps say empty contacts, a wrong e-mail and an over-long patient name at the field", async ({ page }, testInfo) => {
  const javascript = testInfo.project.use.javaScriptEnabled !== false;
  await page.goto("/order");
  await press(page, "Далее →", 2);
  await pageSettled(page, javascript);
  const requests = countRequests(page);
  const next = page.getByRole("button", { name: "Далее →" });
  const email = page.getByLabel("E-mail");
  const phone = page.getByLabel("Телефон");

  // Empty required fields: each said at its field and in the summary, which takes the focus with JavaScript.
  await next.click();
  await expect(page.locator("#field-email-error")).toHaveText("Пожалуйста, укажите email");
  await expect(page.locator("#field-phone-error")).toHaveText("Пожалуйста, укажите номер телефона");
  await expect(email).toHaveAttribute("aria-invalid", "true");
  if (javascript) await expect(page.locator(".error-summary")).toBeFocused();

  // A wrong e-mail: said, and what was typed stays.
  await email.fill("doctor@clinic");
  await phone.fill("+7 900 123-45-67");
  await next.click();
  await expect(page.locator("#field-email-error")).toHaveText("Пожалуйста, укажите корректный email");
  await expect(page.locator("#field-phone-error")).toHaveCount(0);
  await expect(email).toHaveValue("doctor@clinic");
  await expect(phone).toHaveValue("+7 900 123-45-67");
  await atStep(page, 2);

  if (javascript) expect(requests.filter((request) => request.startsWith("POST "))).toEqual([]);
  else expect(requests.filter((request) => request.startsWith("POST "))).toHaveLength(2);

  // Corrected, the step goes on: the server decides and stores.
  await email.fill(`checks-${testInfo.project.name}-${Date.now()}@clinic.ru`);
  await press(page, "Далее →", 3);
  await page.getByLabel("ФИО получателя").fill("Иванова Анна Сергеевна");
  await page.getByLabel("Адрес доставки").fill("Москва, ул. Тверская, 1");
  await page.getByRole("checkbox").check();
  await press(page, "Далее →", 4);
  await pageSettled(page, javascript);
  const onPatientStep = countRequests(page);

  // An over-long patient name: refused at the field, kept as typed, never cut.
  const name = page.getByLabel("Имя пациента");
  const long = "Я".repeat(201);
  await name.fill(long);
  await page.getByRole("button", { name: "Добавить пациента" }).click();
  await expect(page.locator("#field-patient_name-error")).toHaveText("Слишком длинный текст — сократите его");
  await expect(name).toHaveAttribute("aria-invalid", "true");
  await expect(name).toHaveValue(long);
  if (javascript) expect(onPatientStep.filter((request) => request.startsWith("POST "))).toEqual([]);
  else expect(onPatientStep.filter((request) => request.startsWith("POST "))).toHaveLength(1);
});
