import { expect, test } from "@playwright/test";
import { embedded } from "./support";

/**
 * Both markets on a plain `npm start` (ADR 048): with no origin configured, the domestic market is
 * http://localhost:PORT and the international one http://international.localhost:PORT, which the
 * browser resolves to this machine by itself (no hosts file, no host-resolver rule).
 */

const PORT = process.env.E2E_PORT ?? 3220;

test.describe("a zero-configuration start", () => {
  test.skip(!embedded, "the PostgreSQL target configures its origins");

  test("shows the domestic market on localhost and the international one, in English with euro prices, on international.localhost", async ({ page }) => {
    await page.goto(`http://localhost:${PORT}/`);
    await expect(page.locator("html")).toHaveAttribute("lang", "ru");
    await expect(page.locator("#pricing")).toContainText("₽");

    await page.goto(`http://international.localhost:${PORT}/`);
    await expect(page.locator("html")).toHaveAttribute("lang", "en");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Aligners, matrices and retainers from your STL models");
    await expect(page.locator("#pricing").getByRole("row", { name: /Single-layer aligner/ })).toContainText("€13.90");
    // Its links are its own: the canonical address is the zero-configuration origin.
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute("href", `http://international.localhost:${PORT}/`);
  });
});
