import fs from "node:fs";
import path from "node:path";
import { expect, type Page, test } from "@playwright/test";
import { binaryStl } from "../support/stl-models";
import { atStep, press, signInByMail, walkToPatientStep } from "./journeys";
import { dataDir, e2eQuery, embedded, fixtureFile, literal, outbox, refusing } from "./support";

/**
 * Failures shown where they happen, in the specifications' words (ADR 026, customer side §8), in
 * the browser with JavaScript on and off (the project decides), in Russian and in English (the
 * international market's host). The database refuses one statement through `refusing`; what was
 * typed stays in the form. The integration tests (failures-in-place.test.ts) check the same
 * answers over HTTP; these check that the page shows them.
 */

/** The app's data folder (playwright.config.ts): its folder storage is where a test can make a delete fail. */
const port = Number(process.env.E2E_PORT ?? (embedded ? 3220 : 3210));

const LANGUAGES = [
  {
    lng: "ru",
    baseURL: undefined,
    consent: true,
    next: "Далее →",
    email: "E-mail",
    phone: "Телефон",
    fullName: "ФИО получателя",
    address: "Адрес доставки",
    patientName: "Имя пациента",
    addPatient: "Добавить пациента",
    patientAdded: (name: string) => `Пациент ${name} добавлен в заказ`,
    backToPatient: "Добавить ещё пациента",
    upload: "Загрузить",
    updateTitle: "Ошибка обновления",
    updateText: "Не удалось сохранить данные: база данных отклонила запрос",
    addPatientFailed: "Не удалось добавить пациента",
    noPatient: ["Пациент не выбран или не найден", "Пожалуйста, вернитесь назад и убедитесь, что пациент добавлен в заказ"],
    format: ["Ошибка формата", "1 файл имеет недопустимый формат. Разрешены только файлы .stl, .ply или .obj"],
    size: ["Ошибка размера", "1 файл превышает максимальный размер (100 МБ)"],
    save: ["Ошибка сохранения", "Не удалось сохранить данные файлов матриц в базе данных"],
    signIn: { email: "E-mail", send: "Отправить ссылку для входа", sent: "Ссылка отправлена.", confirm: "Войти" },
    linkFailed: "Ошибка отправки ссылки",
    cabinet: "Личный кабинет",
    newOrder: "Новый заказ",
    orderTitle: /^Заказ [0-9A-Z]{4}$/,
    signOut: "Выйти",
    signOutFailed: ["Ошибка выхода", "Не удалось выйти из системы"],
    partnerName: "Клиника Отказ",
    partnerNameLabel: "Имя или название организации",
    partnerCreate: "Получить партнёрский код",
    partnerNameSave: "Сохранить имя",
    partnerNameFailed: "Не удалось сохранить имя: база данных отклонила запрос",
    removeLabel: (name: string) => `Удалить файл ${name}`,
    removeFailed: ["Невозможно удалить файл", "Не удалось удалить файл из хранилища"],
  },
  {
    lng: "en",
    // playwright.config.ts resolves this host to loopback; the international market speaks English.
    baseURL: `http://aligners-e2e.com:${port}`,
    consent: false,
    next: "Next →",
    email: "Email",
    phone: "Phone",
    fullName: "Recipient's full name",
    address: "Delivery address",
    patientName: "Patient name",
    addPatient: "Add patient",
    patientAdded: (name: string) => `Patient ${name} has been added to the order`,
    backToPatient: "Add another patient",
    upload: "Upload",
    updateTitle: "Update error",
    updateText: "Could not save the data: the database refused the request",
    addPatientFailed: "The patient could not be added",
    noPatient: ["No patient selected or found", "Please go back and make sure a patient has been added to the order"],
    format: ["Format error", "1 file has an invalid format. Only .stl, .ply or .obj files are allowed"],
    size: ["Size error", "1 file is larger than the maximum size (100 MB)"],
    save: ["Save error", "Could not save the matrix files' data in the database"],
    signIn: { email: "Email", send: "Send sign-in link", sent: "Link sent.", confirm: "Sign in" },
    linkFailed: "Could not send the link",
    cabinet: "My account",
    newOrder: "New order",
    orderTitle: /^Order [0-9A-Z]{4}$/,
    signOut: "Sign out",
    signOutFailed: ["Sign-out error", "Could not sign you out"],
    partnerName: "Refused Clinic",
    partnerNameLabel: "Name or organisation",
    partnerCreate: "Get a partner code",
    partnerNameSave: "Save name",
    partnerNameFailed: "Could not save the name: the database refused the request",
    removeLabel: (name: string) => `Delete file ${name}`,
    removeFailed: ["Unable to delete file", "The file could not be deleted from storage"],
  },
] as const;

type Texts = (typeof LANGUAGES)[number];

function fixture(name: string, write: (file: string) => void): string {
  return fixtureFile(name, write);
}

const unique = () => `${Date.now()}-${Math.random().toString(36).slice(2, 6)}`;

/** A toast or an in-place message: its title and text together, as the person reads them. */
async function says(page: Page, [title, text]: readonly [string, string]) {
  const alert = page.getByRole("alert").filter({ hasText: title });
  await expect(alert).toBeVisible();
  await expect(alert).toContainText(text);
}

/** A fresh order walked to the matrix upload (step 5) with one patient, in the page's language. */
async function toMatrixUpload(page: Page, texts: Texts, label: string) {
  await walkToPatientStep(page, texts, `${label}-${unique()}@clinic.ru`);
  await page.getByLabel(texts.patientName).fill("Смирнова Е.");
  await press(page, texts.addPatient, 4);
  await press(page, texts.next, 5);
}

async function chooseFiles(page: Page, texts: Texts, files: string[]) {
  await page.setInputFiles("#field-files", files);
  // With JavaScript choosing starts the upload and the button has nothing left to send; without, it posts the form.
  await page.getByRole("button", { name: texts.upload, exact: true }).click();
}

for (const texts of LANGUAGES) {
  test.describe(`in ${texts.lng}`, () => {
    test.use({ baseURL: texts.baseURL });

    test("the wizard's failed saves are said in place and keep what was typed", async ({ page }) => {
      test.skip(embedded, "the database is refused through a trigger on the PostgreSQL target; the embedded PGlite has no outside connection");
      test.setTimeout(120_000);
      const email = `refused-${unique()}@clinic.ru`;
      const patient = `Отказ ${unique()}`;
      await page.goto("/order");
      await press(page, texts.next, 2);

      // Step 2: the contacts cannot be saved.
      await page.getByLabel(texts.email).fill(email);
      await page.getByLabel(texts.phone).fill("+7 900 123-45-67");
      await refusing("orders", "update", `new.email = ${literal(email)}`, async () => {
        await press(page, texts.next, 2);
        await says(page, [texts.updateTitle, texts.updateText]);
        await expect(page.getByLabel(texts.email)).toHaveValue(email);
      });
      await press(page, texts.next, 3);
      await page.getByLabel(texts.fullName).fill("Иванова Анна Сергеевна");
      await page.getByLabel(texts.address).fill("Москва, ул. Тверская, 1");
      if (texts.consent) await page.getByRole("checkbox").check();
      await press(page, texts.next, 4);

      // An upload step reached without a patient says so, with the way back.
      await e2eQuery("update orders set wizard_step = 5 where email = $1", [email]);
      await page.reload();
      await atStep(page, 5);
      await says(page, texts.noPatient);
      await press(page, texts.backToPatient, 4);

      // Step 4: the patient cannot be added; the name stays for the next try.
      await page.getByLabel(texts.patientName).fill(patient);
      await refusing("orders_patients", "insert", `new.patient_name = ${literal(patient)}`, async () => {
        await press(page, texts.addPatient, 4);
        await expect(page.getByText(texts.addPatientFailed)).toBeVisible();
        await expect(page.getByLabel(texts.patientName)).toHaveValue(patient);
      });
      await press(page, texts.addPatient, 4);
      await expect(page.getByText(texts.patientAdded(patient))).toBeVisible();
      await press(page, texts.next, 5);

      // Step 5: a model whose list cannot be saved (the resumable upload with JavaScript, the form without).
      const model = fixture("refused-matrix.stl", (file) => fs.writeFileSync(file, binaryStl(12)));
      await refusing("orders_patients", "update", `new.patient_name = ${literal(patient)}`, async () => {
        await chooseFiles(page, texts, [model]);
        await atStep(page, 5);
        await says(page, texts.save);
      });
      await expect(page.locator(".file-list li")).toHaveCount(0);
      const stored = await e2eQuery<{ files: unknown }>("select matrix_files_info as files from orders_patients where patient_name = $1", [patient]);
      expect(stored[0]?.files ?? []).toEqual([]);
    });

    test("a wrong format and an oversized file get their own titles", async ({ page }) => {
      test.setTimeout(90_000);
      await toMatrixUpload(page, texts, "format");

      await chooseFiles(page, texts, [fixture("notes.txt", (file) => fs.writeFileSync(file, "not a model"))]);
      await atStep(page, 5);
      await says(page, texts.format);
      // 100 MiB and one byte, sparse on disk: refused before sending with JavaScript, by the server without.
      const oversized = fixture("oversized.stl", (file) => {
        fs.writeFileSync(file, binaryStl(1));
        fs.truncateSync(file, 104_857_601);
      });
      await chooseFiles(page, texts, [oversized]);
      await atStep(page, 5);
      await says(page, texts.size);
      await expect(page.locator(".file-list li")).toHaveCount(0);
    });

    test("a file the storage will not delete is reported to the doctor", async ({ page }) => {
      test.setTimeout(90_000);
      await toMatrixUpload(page, texts, "remove");
      await chooseFiles(page, texts, [fixture("kept-lower.stl", (file) => fs.writeFileSync(file, binaryStl(12)))]);
      await atStep(page, 5);
      await expect(page.locator(".file-list li", { hasText: "kept-lower.stl" })).toHaveCount(1);

      // The stored file becomes a folder with something in it: the storage refuses to delete it.
      const orderId = await page.locator('input[name="orderId"]').first().inputValue();
      const files = await page.evaluate(async (id) => ((await (await fetch(`/uploads/status?order=${id}`)).json()) as { files: Record<string, string> }).files, orderId);
      const stored = path.join(dataDir, "storage", "orders", Object.keys(files)[0]!);
      fs.rmSync(stored);
      fs.mkdirSync(path.join(stored, "kept"), { recursive: true });

      page.once("dialog", (dialog) => void dialog.accept()); // with JavaScript the page asks first
      await page.getByRole("button", { name: texts.removeLabel("kept-lower.stl") }).click();
      await atStep(page, 5);
      await says(page, texts.removeFailed);
    });

    test("a sign-in link that cannot be sent is titled so, with the e-mail kept", async ({ page }) => {
      const email = `link-${unique()}@clinic.ru`;
      await page.goto("/auth");
      // The outbox becomes a file: the mail cannot be written.
      const aside = `${outbox}.aside`;
      if (fs.existsSync(outbox)) fs.renameSync(outbox, aside);
      fs.writeFileSync(outbox, "not a folder");
      try {
        await page.getByLabel(texts.signIn.email).fill(email);
        await page.getByRole("button", { name: texts.signIn.send }).click();
        await expect(page.getByText(texts.linkFailed)).toBeVisible();
        await expect(page.getByLabel(texts.signIn.email)).toHaveValue(email);
      } finally {
        fs.rmSync(outbox);
        if (fs.existsSync(aside)) fs.renameSync(aside, outbox);
      }
    });

    test("the cabinet's header starts a fresh order; a sign-out that fails is said and the doctor stays in", async ({ page }) => {
      const email = `cabinet-${unique()}@clinic.ru`;
      await page.goto("/auth?redirectTo=%2Fcabinet");
      await signInByMail(page, email, texts.signIn);
      await expect(page.getByRole("heading", { name: texts.cabinet, level: 1 })).toBeVisible();

      // A draft in progress; the header's "new order" on the cabinet leaves it and starts afresh.
      await page.goto("/order");
      await press(page, texts.next, 2);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(texts.orderTitle);
      await page.goto("/cabinet");
      await page.locator("header.site-header").getByRole("button", { name: texts.newOrder }).click();
      await atStep(page, 1);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(texts.newOrder);

      if (embedded) return; // the refused sign-out needs the PostgreSQL target's trigger
      await page.goto("/cabinet");
      const [user] = await e2eQuery<{ id: string }>("select id from users where email = $1", [email]);
      await refusing("sessions", "delete", `old.user_id = ${literal(user!.id)}`, async () => {
        await page.locator("header.site-header").getByRole("button", { name: texts.signOut }).click();
        await expect(page).toHaveURL(/\/cabinet$/);
        await says(page, texts.signOutFailed);
      });
      await page.reload();
      await expect(page.getByRole("heading", { name: texts.cabinet, level: 1 })).toBeVisible();
    });

    test("a partner name that cannot be saved says why in place and stays in the field", async ({ page }) => {
      test.skip(embedded, "the database is refused through a trigger on the PostgreSQL target; the embedded PGlite has no outside connection");
      const name = `${texts.partnerName} ${unique()}`;
      await page.goto("/auth?redirectTo=%2Fpartner");
      await signInByMail(page, `partner-refused-${unique()}@clinic.ru`, texts.signIn);
      await expect(page).toHaveURL(/\/partner$/);
      await page.getByRole("button", { name: texts.partnerCreate }).click();
      await page.getByLabel(texts.partnerNameLabel).fill(name);
      await refusing("partner_codes", "update", `new.user_name = ${literal(name)}`, async () => {
        await page.getByRole("button", { name: texts.partnerNameSave }).click();
        await expect(page.getByText(texts.partnerNameFailed)).toBeVisible();
        await expect(page.getByLabel(texts.partnerNameLabel)).toHaveValue(name);
      });
    });
  });
}
