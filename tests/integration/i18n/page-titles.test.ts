import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppServer, startAppServer } from "../../support/app-server";
import { createTestDatabase, type TestDatabase } from "../../support/database";
import { browserIn, MARKET_HOSTS, SECRETS } from "./support";

/** A tab's title speaks the page's language, as the page does (ADR 043): never a word built in code. */
describe("page titles in the reader's language", () => {
  let t: TestDatabase;
  let app: AppServer;

  beforeAll(async () => {
    t = await createTestDatabase(2);
    app = await startAppServer({ DATABASE_URL: t.url, ...SECRETS, ...MARKET_HOSTS });
  });
  afterAll(async () => {
    await app?.stop();
    await t?.drop();
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
