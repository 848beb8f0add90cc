import { expect, test } from "@playwright/test";
import { signInByMail } from "./journeys";


/**
 * The roles page as an admin sees it (the back-office password is a manager's and gets a 403
 * there), with JavaScript on and off: the page renders and hydrates without a script error, a role
 * is assigned by e-mail and removed again from its badge, so the shared database is left as found.
 */

const ADMIN = "admin@aligner.local";

test("an admin assigns a role by e-mail and removes it from its badge", async ({ page, javaScriptEnabled }) => {
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  await page.goto("/auth?redirectTo=%2Fbackoffice%2Froles");
  await signInByMail(page, ADMIN);
  await expect(page).toHaveURL(/\/backoffice\/roles$/);
  await expect(page.getByRole("heading", { name: "Роли", level: 1 })).toBeVisible();
  if (javaScriptEnabled) await page.waitForLoadState("networkidle");

  // A user the page lists with no role badge (no "remove" button of theirs), as an admin would choose one.
  const listed = (await page.locator("#roles-user option").allTextContents()).map((text) => text.trim()).filter((text) => text.includes("@"));
  const removeButtons = (await page.getByRole("button", { name: /^Удалить роль / }).evaluateAll((buttons) => buttons.map((button) => button.getAttribute("aria-label") ?? ""))).join("\n");
  const email = listed.find((candidate) => !removeButtons.includes(` у ${candidate}`));
  expect(email, "a listed user without a role").toBeDefined();
  const someone = { email: email! };

  const byEmail = page.getByRole("form", { name: "Назначить роль по e-mail" });
  await byEmail.getByLabel("E-mail пользователя").fill(someone!.email);
  await byEmail.getByLabel("Роль").selectOption({ label: "Менеджер" });
  await byEmail.getByRole("button", { name: "Назначить" }).click();
  await expect(page.locator(".toast").first()).toContainText("Роль назначена пользователю");

  await page.getByRole("button", { name: `Удалить роль Менеджер у ${someone!.email}` }).click();
  await expect(page.locator(".toast").first()).toContainText("Роль удалена у пользователя");
  await expect(page.getByRole("button", { name: `Удалить роль Менеджер у ${someone!.email}` })).toHaveCount(0);
  expect(errors).toEqual([]);
});
