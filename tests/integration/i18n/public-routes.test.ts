import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LANGUAGES } from "~/modules/i18n/languages";
import { browserIn, cyrillicSamples, emptyTextElements, type Market, MARKET_HOSTS } from "./support";
import { startApp, type TestApp } from "../../support/app";

/**
 * Every public page in all six languages on both markets, rendered by the real server with the
 * missing-key handler armed (APP_ENV=test: a missing or empty text fails the render, so the page
 * answers 500 and the log names the key). Non-Russian pages carry no Cyrillic in their interface.
 */

/** Pages anyone may open, with the status they answer. `{lang}` is the page language's own landing URL. */
const PUBLIC_PAGES: Array<{ path: string; status: number; international?: number }> = [
  { path: "/", status: 200 },
  { path: "/{lang}", status: 200 },
  { path: "/privacy", status: 200 },
  { path: "/terms", status: 200 },
  // The international market publishes no offer: its terms are the contract (ADR 024).
  { path: "/public-offer", status: 200, international: 302 },
  { path: "/data-consent", status: 200 },
  { path: "/auth", status: 200 },
  { path: "/order", status: 200 },
  { path: "/thankyou", status: 200 },
  { path: "/refdoc", status: 200 },
  { path: "/backoffice/login", status: 200 },
  { path: "/no-such-page/anywhere", status: 404 },
];

const MARKETS: Market[] = ["domestic", "international"];

describe("public pages in six languages", () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startApp({ env: { ...MARKET_HOSTS } });
  });
  afterAll(async () => {
    await app?.close();
  });

  describe.each(MARKETS)("on the %s market", (market) => {
    it.each(LANGUAGES)("renders every public page in %s, complete and in that language", async (language) => {
      const browser = await browserIn(app, market, language);
      for (const page of PUBLIC_PAGES) {
        const path = page.path.replace("{lang}", language);
        const response = await browser.request(path);
        const html = await response.text();
        const status = market === "international" ? (page.international ?? page.status) : page.status;
        expect(response.status, `${market} ${language} ${path}`).toBe(status);
        if (status === 302) continue;
        expect(html, `${market} ${language} ${path}`).toContain(`<html lang="${language}">`);
        expect(emptyTextElements(html), `${market} ${language} ${path}: empty texts`).toEqual([]);
        // React 18's streaming renderer once broke long Cyrillic pages with NUL bytes (entry.server).
        expect(html.includes("\u0000"), `${market} ${language} ${path}: NUL in the page`).toBe(false);
        if (language !== "ru") expect(cyrillicSamples(html), `${market} ${language} ${path}: Cyrillic in the interface`).toEqual([]);
      }
      expect(app.output()).not.toMatch(/Missing translation/);
    });
  });

  it("takes the language from the URL first, then the saved choice, then the market", async () => {
    const german = await browserIn(app, "domestic", "de");
    expect(await (await german.request("/")).text()).toContain('<html lang="de">');
    expect(await (await german.request("/it")).text()).toContain('<html lang="it">');
    // The language opened by URL becomes the saved choice for the pages that follow.
    expect(await (await german.request("/")).text()).toContain('<html lang="it">');
    const fresh = await fetch(`${app.url}/`);
    expect(await fresh.text()).toContain('<html lang="ru">');
    const international = await fetch(`http://localhost:${app.port}/privacy`);
    expect(await international.text()).toContain('<html lang="en">');
  });

  it("would notice an untranslated text: the checks see Cyrillic and empty elements", () => {
    expect(cyrillicSamples('<p>Preise</p><button lang="ru">Русский</button>')).toEqual([]);
    expect(cyrillicSamples("<p>Preise: Цены</p>")).not.toEqual([]);
    expect(emptyTextElements("<h2> </h2><p>ok</p>")).toEqual(["<h2> </h2>"]);
  });
});
