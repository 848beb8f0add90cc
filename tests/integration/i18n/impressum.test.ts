import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LANGUAGES } from "~/modules/i18n/languages";
import { COMPANY_INTERNATIONAL } from "../../support/company";
import { startApp, type TestApp } from "../../support/app";
import { browserIn, cyrillicSamples, marketBrowser, MARKET_HOSTS } from "./support";

/**
 * The Impressum (issue 45 item 7, ADR 076): on the international host, in every language, every fact
 * from configuration, linked from every page's footer; the domestic host names its provider in the
 * public offer, so its footer has no such link and /impressum leads there.
 */

const unescape = (html: string) => html.replace(/&quot;/g, '"').replace(/&#x27;|&#39;/g, "'").replace(/&amp;/g, "&");
const visibleText = (html: string) => unescape(html.replace(/<script[\s\S]*?<\/script>/g, "").replace(/<[^>]+>/g, " ")).replace(/\s+/g, " ");

const FACTS = [
  "COMPANY_INTERNATIONAL_NAME",
  "COMPANY_INTERNATIONAL_ADDRESS",
  "COMPANY_INTERNATIONAL_REPRESENTATIVE",
  "COMPANY_INTERNATIONAL_CONTACT_EMAIL",
  "COMPANY_INTERNATIONAL_PHONE",
  "COMPANY_INTERNATIONAL_REGISTER",
  "COMPANY_INTERNATIONAL_REGISTER_NUMBER",
  "COMPANY_INTERNATIONAL_VAT",
] as const;

describe("the Impressum", () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startApp({ env: { ...MARKET_HOSTS, ...COMPANY_INTERNATIONAL } });
  });
  afterAll(async () => {
    await app?.close();
  });

  it.each(LANGUAGES)("renders on the international host in %s with every fact from configuration", async (language) => {
    const browser = await browserIn(app, "international", language);
    const response = await browser.request("/impressum");
    expect(response.status).toBe(200);
    const html = await response.text();
    const text = visibleText(html);
    for (const fact of FACTS) expect(text, `${language}: ${fact}`).toContain(COMPANY_INTERNATIONAL[fact]);
    expect(text).not.toMatch(/\(demo\)|\{\{/);
    expect(html).toContain(`href="mailto:${COMPANY_INTERNATIONAL.COMPANY_INTERNATIONAL_CONTACT_EMAIL}"`);
    expect(text).toContain("Impressum");
    if (language === "de") expect(text).toContain("Angaben gemäß § 5 DDG");
    if (language !== "ru") expect(cyrillicSamples(html), language).toEqual([]);
  });

  it("is linked from the international footer of every page, and the domestic host leads to its public offer", async () => {
    const international = marketBrowser(app, "international");
    for (const path of ["/", "/privacy", "/terms", "/auth"]) {
      expect(await (await international.request(path)).text(), path).toContain('href="/impressum"');
    }
    const domestic = marketBrowser(app, "domestic");
    expect(await (await domestic.request("/")).text()).not.toContain('href="/impressum"');
    const answer = await domestic.request("/impressum");
    expect(answer.status).toBe(302);
    expect(answer.headers.get("location")).toBe("/public-offer");
  });
});
