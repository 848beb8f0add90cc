import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LANGUAGES } from "~/modules/i18n/languages";
import { COMPANY_INTERNATIONAL } from "../../support/company";
import type { TestDatabase } from "../../support/database";
import { browserIn, cyrillicSamples, MARKET_HOSTS } from "./support";
import { startApp, type TestApp } from "../../support/app";

/**
 * Legal pages per market (issue 19, item 1; ADR 024): the host decides which texts a reader gets,
 * the language only which translation of them.
 */

const DOCUMENTS = [
  { path: "/privacy", key: "privacy" },
  { path: "/terms", key: "terms" },
  { path: "/data-consent", key: "dataConsent" },
] as const;

/** How each language names the regulation; every version also cites its number. */
const GDPR_NAME: Record<string, string> = { ru: "GDPR", en: "GDPR", de: "DSGVO", es: "RGPD", fr: "RGPD", it: "GDPR" };

/** Russian law the international texts must never cite, in any language or spelling. */
const RUSSIAN_LAW = /152-?\s?(FZ|ФЗ)|Federal Law|Федеральн|Russian Federation|Российской Федерации|Russischen Föderation|Federación de Rusia|Fédération de Russie|Federazione Russa|Гражданск/;

type Tree = { [key: string]: string | Tree };
const locale = (language: string): Tree => JSON.parse(fs.readFileSync(path.resolve(`locales/${language}/legal.json`), "utf8")).legal;
const leaves = (tree: Tree): string[] => Object.values(tree).flatMap((value) => (typeof value === "string" ? [value] : leaves(value)));
const unescape = (html: string) =>
  html.replace(/&quot;/g, '"').replace(/&#x27;|&#39;/g, "'").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");
/** The visible text of a page: markup without scripts and tags. */
const visibleText = (html: string) => unescape(html.replace(/<script[\s\S]*?<\/script>/g, "").replace(/<[^>]+>/g, " ")).replace(/\s+/g, " ");

describe("legal pages per market", () => {
  let t: TestDatabase;
  let app: TestApp;

  beforeAll(async () => {
    app = await startApp({ env: { ...MARKET_HOSTS, ...COMPANY_INTERNATIONAL } });
    t = app.database;
  });
  afterAll(async () => {
    await app?.close();
  });

  describe.each(LANGUAGES)("international market in %s", (language) => {
    it("cites the GDPR and no Russian law, with the company details from configuration", async () => {
      const browser = await browserIn(app, "international", language);
      for (const document of DOCUMENTS) {
        const response = await browser.request(document.path);
        const html = await response.text();
        const label = `${language} ${document.path}`;
        expect(response.status, label).toBe(200);
        const text = visibleText(html);
        if (document.key !== "terms") expect(text, label).toContain(GDPR_NAME[language]!);
        expect(text, label).not.toMatch(RUSSIAN_LAW);
        expect(text, label).toContain(COMPANY_INTERNATIONAL.COMPANY_INTERNATIONAL_NAME);
        expect(text, label).toContain(COMPANY_INTERNATIONAL.COMPANY_INTERNATIONAL_ADDRESS);
        expect(text, label).toContain(COMPANY_INTERNATIONAL.COMPANY_INTERNATIONAL_VAT);
        expect(text, label).not.toMatch(/\{\{\w+\}\}/);
        expect(text, label).not.toMatch(/\(demo\)/);
        if (language !== "ru") expect(cyrillicSamples(html), label).toEqual([]);
        const expected = locale(language).international as Tree;
        const title = ((expected[document.key] as Tree).title as string).trim();
        expect(unescape(html).includes(`<h1>${title}</h1>`), `${label}: <h1>${title}</h1>`).toBe(true);
      }
      const privacy = visibleText(await (await browser.request("/privacy")).text());
      expect(privacy).toContain("2016/679");
      expect(privacy).toContain(GDPR_NAME[language]!);
      // Health data, its basis, transfers, the authority, the real retention of drafts.
      for (const article of ["9(2)(h)", "46(2)(c)", "77", "28"]) {
        const spelled = { de: article.replace("9(2)(h)", "9 Abs. 2 lit. h").replace("46(2)(c)", "46 Abs. 2 lit. c"), es: article.replace("9(2)(h)", "9.2.h").replace("46(2)(c)", "46.2.c"), fr: article.replace("9(2)(h)", "9, paragraphe 2, point h)").replace("46(2)(c)", "46, paragraphe 2, point c)"), it: article.replace("9(2)(h)", "9, par. 2, lett. h").replace("46(2)(c)", "46, par. 2, lett. c") }[language as "de" | "es" | "fr" | "it"] ?? article;
        expect(privacy, `${language}: art. ${spelled}`).toContain(spelled);
      }
      expect(privacy).toContain("30");
      expect(privacy).toContain(COMPANY_INTERNATIONAL.COMPANY_INTERNATIONAL_SUPERVISORY_AUTHORITY);
      expect(privacy).toContain(COMPANY_INTERNATIONAL.COMPANY_INTERNATIONAL_DATA_LOCATION);
      expect(privacy).toContain(COMPANY_INTERNATIONAL.COMPANY_INTERNATIONAL_DPO);
      expect(privacy).toContain(COMPANY_INTERNATIONAL.COMPANY_INTERNATIONAL_EMAIL);
      // Issue 37: the production site's country and the transfer's safeguard, the EU representative,
      // the retention periods from configuration, the MDR's documentation duty, every cookie by name.
      expect(privacy).toContain(COMPANY_INTERNATIONAL.COMPANY_INTERNATIONAL_PRODUCTION_COUNTRY);
      expect(privacy).toContain(COMPANY_INTERNATIONAL.COMPANY_INTERNATIONAL_EU_REPRESENTATIVE);
      expect(privacy).toContain("2021/914");
      expect(privacy).toContain("2017/745");
      expect(privacy).toMatch(new RegExp(`\\b${COMPANY_INTERNATIONAL.RETENTION_ACCOUNTING_YEARS}\\b`));
      expect(privacy).toMatch(new RegExp(`\\b${COMPANY_INTERNATIONAL.COMPANY_INTERNATIONAL_LOG_RETENTION_DAYS}\\b`));
      expect(privacy).toContain("stripe.com/privacy");
      for (const name of ["__session", "current_order", "my_orders", "lng", "cookie_ok", "partner", "bo_gate", "packer_gate", "toast", "bo_files_result", "tus::"]) {
        expect(privacy, `${language}: ${name}`).toContain(name);
      }
      // Nothing claims a consent the product does not rely on: the patients' data page asks none.
      const patients = visibleText(await (await browser.request("/data-consent")).text());
      expect(patients).toContain(COMPANY_INTERNATIONAL.COMPANY_INTERNATIONAL_PRODUCTION_COUNTRY);
      const ownTexts = (locale(language).international as Tree).dataConsent as Tree;
      expect(Object.keys(ownTexts.sections as Tree)).not.toContain("withdrawal");
      expect(Object.keys(ownTexts.sections as Tree)).not.toContain("consent");
    });

    it("sends the public offer, which this market does not publish, to its terms", async () => {
      const browser = await browserIn(app, "international", language);
      const response = await browser.request("/public-offer");
      expect(response.status).toBe(302);
      expect(response.headers.get("Location")).toBe("/terms");
    });
  });

  describe.each(LANGUAGES)("domestic market in %s", (language) => {
    it("shows the domestic texts, word for word, and none of the international ones", async () => {
      const browser = await browserIn(app, "domestic", language);
      const texts = locale(language);
      for (const document of [...DOCUMENTS, { path: "/public-offer", key: "publicOffer" } as const]) {
        const response = await browser.request(document.path);
        const html = await response.text();
        const label = `${language} ${document.path}`;
        expect(response.status, label).toBe(200);
        const text = visibleText(html);
        const own = texts[document.key] as Tree;
        // Every paragraph and list item of the document as written (market values filled in).
        for (const sentence of leaves(own.sections as Tree)) {
          const fixed = sentence.split(/\{\{\w+\}\}/).filter((part) => part.trim().length > 0);
          for (const part of fixed) expect(text.includes(part.replace(/\s+/g, " ").trim()), `${label}: ${part.slice(0, 60)}`).toBe(true);
        }
        expect(text, label).not.toContain("2016/679");
        expect(text, label).not.toContain(COMPANY_INTERNATIONAL.COMPANY_INTERNATIONAL_NAME);
      }
      const privacy = visibleText(await (await browser.request("/privacy")).text());
      expect(privacy).toMatch(/152-(FZ|ФЗ)/);
    });
  });

  it("writes the first of the month as an ordinal in French and Italian", async () => {
    expect(visibleText(await (await (await browserIn(app, "international", "fr")).request("/privacy")).text())).toContain("1er décembre 2026");
    expect(visibleText(await (await (await browserIn(app, "international", "it")).request("/privacy")).text())).toContain("1° dicembre 2026");
  });

  it("says so when no DPO or EU representative is appointed and production stays in the EU/EEA", async () => {
    const other = await startApp({
      database: t,
      env: {
        ...MARKET_HOSTS,
        ...COMPANY_INTERNATIONAL,
        COMPANY_INTERNATIONAL_DPO: "none",
        COMPANY_INTERNATIONAL_EU_REPRESENTATIVE: "none",
        COMPANY_INTERNATIONAL_TRANSFER_SAFEGUARD: "none",
      },
    });
    try {
      const privacy = visibleText(await (await (await browserIn(other, "international", "en")).request("/privacy")).text());
      expect(privacy).toContain("We have not appointed a data protection officer");
      expect(privacy).toContain("no representative under Art. 27 GDPR is needed");
      expect(privacy).toContain("Our production site is in Testland, within the EU/EEA");
      expect(privacy).not.toContain("2021/914");
      expect(privacy).not.toMatch(/\bnone\b/);
    } finally {
      await other.close();
    }
  });

  it("links each document to the market's others, and the cookie notice to the market's privacy text", async () => {
    const international = await browserIn(app, "international", "de");
    const terms = await (await international.request("/terms")).text();
    expect(terms).toContain('href="/privacy"');
    expect(terms).toContain('href="/data-consent"');
    expect(terms).not.toContain('href="/public-offer"');
    expect(terms).toContain('href="/privacy#cookies"');
    const domestic = await browserIn(app, "domestic", "ru");
    const privacy = await (await domestic.request("/privacy")).text();
    expect(privacy).toContain('href="/public-offer"');
    expect(privacy).toContain('href="/privacy#cookies"');
  });
});
