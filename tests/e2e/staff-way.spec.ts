import { type Browser, expect, type Page, test } from "@playwright/test";
import { signInBackoffice, signInByMail } from "./journeys";

/**
 * Staff find their way (ADR 069), with JavaScript on and off. A new staff member starts at the gate:
 * refused, reads how to get in, signs in with their own address and is told it has no role; an
 * admin grants one on the roles page (the address field suggests staff, not customers); the new
 * member reaches the back office; the role is removed again after the last-role question, and the
 * address is then suggested as past staff. A translator finds a text in the catalogue, overrides it
 * in one language and sees it marked, then removes the override so the shared database is as found.
 */

const ADMIN = "admin@aligner.local";

async function newPage(browser: Browser, javaScriptEnabled: boolean): Promise<Page> {
  const context = await browser.newContext({ javaScriptEnabled });
  return context.newPage();
}

test("a new staff member starting from the gate gets a role from an admin and reaches the back office", async ({ page, browser, javaScriptEnabled }, testInfo) => {
  // Two people sign in by mail and take turns: a longer journey than one page's.
  test.setTimeout(180_000);
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  const newcomer = `newcomer-${testInfo.project.name}-${Date.now()}@aligner.local`;

  // Refused at the gate, the newcomer reads how to get in and signs in with their own address.
  await page.goto("/backoffice");
  await expect(page.getByRole("heading", { name: "Как получить доступ" })).toBeVisible();
  await expect(page.getByText("Роли назначает администратор на странице «Роли»")).toBeVisible();
  await page.getByRole("link", { name: "Войти со своим e-mail" }).click();
  await expect(page).toHaveURL(/\/auth\?redirectTo=%2Fbackoffice$/);
  await signInByMail(page, newcomer);
  // Signed in, but the address has no staff role yet: the gate says so.
  await expect(page.getByText(`Вы вошли как ${newcomer}, но у этого адреса нет роли сотрудника.`)).toBeVisible();

  // An admin grants the role on the roles page with the one form.
  const admin = await newPage(browser, javaScriptEnabled);
  admin.on("pageerror", (error) => errors.push(error.message));
  await admin.goto("/auth?redirectTo=%2Fbackoffice%2Froles");
  await signInByMail(admin, ADMIN);
  await expect(admin.getByRole("heading", { name: "Роли", level: 1 })).toBeVisible();
  const suggested = await admin.locator("#roles-staff-emails option").evaluateAll((options) => options.map((option) => (option as HTMLOptionElement).value));
  expect(suggested).toContain(ADMIN);
  expect(suggested).not.toContain(newcomer);
  expect(suggested.filter((email) => !email.endsWith("@aligner.local") && !email.includes("aligner")), "no customers among the suggestions").toEqual([]);
  const form = admin.getByRole("form", { name: "Назначить роль по e-mail" });
  await form.getByLabel("E-mail пользователя").fill(newcomer);
  await form.getByLabel("Роль").selectOption({ label: "Менеджер" });
  await form.getByRole("button", { name: "Назначить" }).click();
  await expect(admin.locator(".toast").first()).toContainText("Роль назначена пользователю");

  // The newcomer now reaches the back office with their own address.
  await page.goto("/backoffice");
  await expect(page.getByRole("heading", { name: "Заказы", level: 1 })).toBeVisible();
  await expect(page.locator(".bo-who")).toHaveText(newcomer);

  // Removing their last role asks first; afterwards they are suggested as past staff.
  await admin.getByRole("button", { name: `Удалить роль Менеджер у ${newcomer}` }).click();
  await expect(admin.getByRole("heading", { name: "Удалить последнюю роль?" })).toBeVisible();
  await admin.getByRole("button", { name: "Удалить роль", exact: true }).click();
  await expect(admin.locator(".toast").first()).toContainText("Роль удалена у пользователя");
  await expect(admin.locator(`#roles-staff-emails option[value="${newcomer}"]`)).toHaveText("бывший сотрудник");
  await admin.context().close();
  expect(errors).toEqual([]);
});

test("a translator finds a text in the catalogue, overrides it in one language and sees it marked", async ({ page, javaScriptEnabled }) => {
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  // Each project its own language, so the two runs never meet on one override.
  const [code, language] = javaScriptEnabled ? ["it", "Italiano"] : ["fr", "Français"];
  const text = `Rimuovere? (${code}-${Date.now()})`;
  await signInBackoffice(page);
  await page.getByRole("link", { name: "Переводы" }).first().click();
  await page.getByRole("link", { name: "Каталог текстов" }).click();
  await expect(page.getByRole("heading", { name: "Каталог текстов", level: 1 })).toBeVisible();
  await expect(page.getByText(/Ключей: \d+/)).toBeVisible();

  // What is missing per language is a link; none is missing in this release's files.
  await page.getByRole("link", { name: new RegExp(`— ${language}: не хватает текстов$`) }).click();
  await expect(page.getByText(/^Найдено: 0 ·/)).toBeVisible();

  await page.getByLabel("Поиск по ключу или тексту").fill("bo.roles.confirmTitle");
  await page.getByLabel("Какие тексты показать").selectOption({ label: "Все тексты" });
  await page.getByRole("button", { name: "Найти" }).click();
  await expect(page.getByText(/^Найдено: 1 ·/)).toBeVisible();
  const row = page.locator('[id="text-bo.roles.confirmTitle"]');
  await expect(row).toContainText("Где используется: /backoffice/roles");
  await row.getByRole("link", { name: `Изменить bo.roles.confirmTitle на языке ${language}` }).click();
  await page.getByLabel("Перевод", { exact: true }).fill(text);
  await page.getByRole("button", { name: "Сохранить" }).click();
  await expect(page.locator(".toast").first()).toContainText("Перевод обновлен");
  const cell = page.locator('[id="text-bo.roles.confirmTitle"] .catalogue-override');
  await expect(cell).toContainText(text);
  await expect(cell).toContainText("изменён");

  // The override is on the list of changed texts; deleting it there leaves the database as found.
  await page.getByRole("link", { name: "Изменённые тексты" }).click();
  const entry = page.locator(".translation-row").filter({ hasText: text });
  await entry.locator("summary", { hasText: "Удалить" }).click();
  await entry.getByRole("button", { name: "Да, удалить" }).click();
  await expect(page.locator(".toast").first()).toContainText("Перевод удален");
  expect(errors).toEqual([]);
});
