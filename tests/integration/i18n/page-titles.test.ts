import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserIn, MARKET_HOSTS } from "./support";
import { startApp, type TestApp } from "../../support/app";

/** A tab's title speaks the page's language, as the page does (ADR 043): never a word built in code. */
describe("page titles in the reader's language", () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startApp({ poolSize: 2, env: { ...MARKET_HOSTS } });
  });
  afterAll(async () => {
    await app?.close();
  });

  const title = (html: string) => /<title>([^<]*)<\/title>/.exec(html)?.[1];

  it("names an unknown page's tab as its heading, in German and in the spec's words in Russian", async () => {
    const german = await browserIn(app, "international", "de");
    const missing = await german.request("/gibt-es-nicht/seite");
    expect(missing.status).toBe(404);
    expect(title(await missing.text())).toBe("Hoppla! Seite nicht gefunden");
    const russian = await browserIn(app, "domestic", "ru");
    expect(title(await (await russian.request("/no/such/page")).text())).toBe("Oops! Page not found");
  });

  it("names the order's tab and shows its progress as each language writes a percentage", async () => {
    const french = await browserIn(app, "international", "fr");
    await french.request("/order", { form: { intent: "next" } });
    const html = (await (await french.request("/order")).text()).replace(/<!-- -->/g, "");
    expect(title(html)).toMatch(/^Commande [0-9A-F]{4} — Aligner Lab$/);
    expect(html).toMatch(/<span>18[\u00a0\u202f]%<\/span>/);
    const russian = await browserIn(app, "domestic", "ru");
    await russian.request("/order", { form: { intent: "next" } });
    expect(title(await (await russian.request("/order")).text())).toMatch(/^Заказ [0-9A-F]{4} — Aligner Lab$/);
  });
});
