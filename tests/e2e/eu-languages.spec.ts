import fs from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { stlFile } from "./journeys";
import { embedded } from "./support";

/**
 * A German, Spanish, French and Italian clinic orders on the international market (ADR 043): the
 * summary's lines, the payment (the sandbox stands in for Stripe's page) and the payment page speak
 * the clinic's language, with euro amounts to the cent. The labels the journey clicks come from the
 * locale files, so the journey reads the page as the clinic does.
 */

const PORT = process.env.E2E_PORT ?? (embedded ? 3220 : 3210);

type Tree = { [key: string]: string | Tree };

function textsOf(language: string) {
  const dir = path.resolve("locales", language);
  const tree: Tree = {};
  for (const file of fs.readdirSync(dir).filter((name) => name.endsWith(".json"))) Object.assign(tree, JSON.parse(fs.readFileSync(path.join(dir, file), "utf8")));
  return (key: string, values: Record<string, string | number> = {}) => {
    let node: string | Tree | undefined = tree;
    for (const part of key.split(".")) node = typeof node === "object" ? node[part] : undefined;
    if (typeof node !== "string") throw new Error(`no text ${key} in ${language}`);
    return node.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) => String(values[name]));
  };
}

/** A money or other text as a pattern, whatever space (normal, no-break, narrow) the locale uses. */
const spaced = (text: string) => new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/[\s\u00a0\u202f]/g, "[\\s\\u00a0\\u202f]"));

const CASES = [
  { language: "de", name: "Deutsch", unit: "14,90 €", discounted: "14,45 €", delivery: "15,00 €", total: "150,00 €" },
  { language: "es", name: "Español", unit: "14,90 €", discounted: "14,45 €", delivery: "15,00 €", total: "150,00 €" },
  { language: "fr", name: "Français", unit: "14,90 €", discounted: "14,45 €", delivery: "15,00 €", total: "150,00 €" },
  { language: "it", name: "Italiano", unit: "14,90 €", discounted: "14,45 €", delivery: "15,00 €", total: "150,00 €" },
] as const;

test.describe("an EU clinic orders and pays in its own language", () => {
  test.use({ baseURL: `http://aligners-e2e.com:${PORT}` });

  for (const c of CASES) {
    test(`in ${c.name}: the summary's lines, the checkout and the payment page, euros to the cent`, async ({ page }) => {
      test.setTimeout(90_000);
      const t = textsOf(c.language);
      const atStep = (step: number) => expect(page.getByText(t("wizard.progress", { step, total: 11 }), { exact: true })).toBeVisible();
      const press = async (name: string, step: number) => {
        await page.getByRole("button", { name: new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}( →)?$`) }).click();
        await atStep(step);
      };

      // The language picker, as a clinic chooses its language.
      await page.goto("/");
      await page.locator("header .language-picker summary").click();
      await page.getByRole("button", { name: c.name }).click();
      await expect(page.locator("html")).toHaveAttribute("lang", c.language);

      await page.goto("/order");
      await atStep(1);
      await press(t("wizard.buttons.next"), 2);
      const email = `eu-${c.language}-${Date.now()}-${Math.random().toString(36).slice(2, 6)}@clinic.com`;
      await page.getByLabel(t("wizard.fields.email")).fill(email);
      await page.getByLabel(t("wizard.fields.phone")).fill("+49 30 123456");
      await press(t("wizard.buttons.next"), 3);
      await page.getByLabel(t("wizard.fields.fullName")).fill("Dr. Anna Keller");
      await page.getByLabel(t("wizard.fields.address")).fill("Berlin, Friedrichstraße 1");
      await press(t("wizard.buttons.next"), 4);
      await page.getByLabel(t("wizard.fields.patientName")).fill("Keller M.");
      await press(t("wizard.buttons.addPatient"), 4);
      await press(t("wizard.buttons.next"), 5);
      await page.setInputFiles("#field-files", [stlFile("eu-matrix-upper.stl")]);
      await page.getByRole("button", { name: t("wizard.buttons.upload"), exact: true }).click();
      await atStep(5);
      await expect(page.getByText("eu-matrix", { exact: false }).first()).toBeVisible();
      // The order's id as the page holds it (the "another device" form of an upload step): the same on
      // both targets, the embedded one's database being inside the server.
      const orderId = await page.locator('input[name="orderId"]').first().inputValue();
      await press(t("wizard.buttons.next"), 6);
      await expect(page.getByRole("radio")).toBeChecked();
      await press(t("wizard.buttons.next"), 7);
      await press(t("wizard.buttons.skip"), 10);
      await press(t("wizard.buttons.skip"), 11);

      // The summary: every line in the clinic's language, euros with two decimals.
      const matrixLine = t("payments.lines.matrices_hard", { name: "Keller M." });
      const table = page.locator("table.price-table");
      await expect(table.getByRole("row", { name: matrixLine })).toContainText(spaced(`1 × ${c.unit}`));
      await expect(table.getByRole("row", { name: t("payments.lines.delivery") })).toContainText(spaced(c.delivery));
      await expect(table.getByRole("row", { name: new RegExp(`^${t("payments.lines.service_fee")}`) })).toBeVisible();
      await expect(table.locator("tfoot")).toContainText(spaced(c.total));
      await expect(table).not.toContainText(/Hard matrices|Packaging and delivery|Service fee/);

      // The checkout: the lines the provider receives, in the clinic's language, adding up to the cent.
      await page.getByRole("button", { name: t("wizard.buttons.payNow") }).click();
      await expect(page).toHaveURL(/\/payment\/sandbox\/sbx_[0-9a-f]{24}$/);
      await expect(page.getByText(t("sandbox.badge"))).toBeVisible();
      const number = orderId.slice(0, 6).toUpperCase();
      await expect(page.getByText(spaced(t("payments.orderDescription", { number })))).toBeVisible();
      await expect(page.getByText(spaced(`${matrixLine}: 1 × ${c.discounted}`))).toBeVisible();
      await expect(page.getByText(spaced(`${t("payments.lines.delivery")}: 1 × ${c.delivery}`))).toBeVisible();
      await expect(page.locator("p.lead")).toHaveText(spaced(c.total));

      // The payment page of the order, as the clinic opens it from its browser.
      await page.goto(`/pay/${orderId}`);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(t("payments.link.title", { number }));
      await expect(page.getByRole("row", { name: matrixLine })).toContainText(spaced(c.discounted));
      await expect(page.getByRole("row", { name: t("payments.lines.delivery") })).toContainText(spaced(c.delivery));
      await expect(page.locator("tfoot")).toContainText(spaced(c.total));
    });
  }
});
