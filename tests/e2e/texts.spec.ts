import { expect, test } from "@playwright/test";
import { atStep } from "./journeys";
import { backofficePassword, e2eQuery, embedded } from "./support";

/**
 * Interface texts by key (ADR 022, 034): the server renders every text; with JavaScript a page
 * loads its texts from /texts/{key} (preloaded) before hydrating, and a client navigation to a new key
 * (an edited text) from /texts/{key}. Runs with JavaScript on and off.
 */

const ORIGINAL = "Добавить перевод";
const EDITED = "Add a translation (edited)";

// The test deletes its edit on the page; should it fail before, the PostgreSQL target is cleaned here too.
test.afterEach(async () => {
  if (!embedded) await e2eQuery(`delete from translations where original_text = $1 and target_language = 'en'`, [ORIGINAL]);
});

test("a personal page switches language with its texts, and a staff edit of a text shows at once", async ({ page, javaScriptEnabled }) => {
  const texts: string[] = [];
  const problems: string[] = [];
  page.on("request", (request) => {
    const { pathname } = new URL(request.url());
    if (pathname.startsWith("/texts/")) texts.push(pathname);
  });
  page.on("pageerror", (error) => problems.push(error.message));
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(message.text());
  });

  await page.goto("/order");
  await atStep(page, 1);
  // The wizard shows no header; the picker is a plain form, so a switch always loads a new document.
  await page.goto("/");
  await page.locator("header .language-picker summary").click();
  await page.getByRole("button", { name: "English" }).click();
  await expect(page).toHaveURL(/\/en$/);
  await page.goto("/order");
  await expect(page.locator("html")).toHaveAttribute("lang", "en");
  await expect(page.getByText("Step 1 of 11", { exact: true })).toBeVisible();

  await page.goto("/backoffice");
  await page.getByLabel("Password").fill(backofficePassword());
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { name: "Orders", level: 1 })).toBeVisible();
  await page.goto("/backoffice/translate");
  const add = page.locator("details.translation-add");
  if (!(await add.evaluate((details: HTMLDetailsElement) => details.open))) await add.getByText("Add a translation", { exact: true }).click();
  await add.getByLabel("Original text (Russian)").fill(ORIGINAL);
  await add.getByLabel("Translation language").selectOption("en");
  await add.getByLabel("Translation", { exact: true }).fill(EDITED);
  await add.getByRole("button", { name: "Add", exact: true }).click();
  await expect(page.getByRole("heading", { name: EDITED, level: 2 })).toBeVisible();

  if (javaScriptEnabled) {
    const key = "[A-Za-z0-9_-]{12}";
    // Each document's texts as data (the landing has none): Russian and English order page, English staff pages.
    expect(texts[0]).toMatch(new RegExp(`^/texts/ru\\.customer\\.${key}$`));
    expect(texts).toContainEqual(expect.stringMatching(new RegExp(`^/texts/en\\.customer\\.${key}$`)));
    expect(texts).toContainEqual(expect.stringMatching(new RegExp(`^/texts/en\\.staff\\.${key}$`)));
    // The edit changed the staff texts' version: the page took the new key's texts without a reload.
    expect(texts[texts.length - 1]).toMatch(new RegExp(`^/texts/en\\.staff\\.${key}$`));
    expect(problems).toEqual([]);
  } else {
    expect(texts).toEqual([]);
  }

  // The edit is a real interface text: staff delete it as they would, and the original wording is back.
  const row = page.locator("li").filter({ has: page.locator('input[name="intent"][value="delete"]') }).filter({ hasText: EDITED });
  await row.locator("details.translation-delete summary").click();
  await row.getByRole("button", { name: "Yes, delete" }).click();
  await expect(page.getByText("Translation deleted")).toBeVisible();
  await expect(page.getByText("Add a translation", { exact: true })).toBeVisible();
});
