import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../support/database";
import { type AppServer, browserFetch, startAppServer } from "../../support/app-server";
import { browserIn, SECRETS } from "./support";

/** A text only the shared texts carry (the cookie notice), to tell whether they were sent. */
const SHARED_TEXT = "Мы используем cookie";

/**
 * Documents carry the interface texts; the data requests of client navigations carry only their key
 * and the browser takes the texts once from /texts/{key} (root clientLoader, i18n/texts-cache).
 */
describe("interface texts: in documents, by key in data requests", () => {
  let t: TestDatabase;
  let app: AppServer;

  beforeAll(async () => {
    t = await createTestDatabase(2);
    Object.assign(process.env, SECRETS);
    app = await startAppServer({ DATABASE_URL: t.url, ...SECRETS });
  });
  afterAll(async () => {
    await app?.stop();
    await t?.drop();
  });

  const keyIn = (body: string) => /\b((?:ru|en|de|es|fr|it)\.(?:customer|staff)\.[A-Za-z0-9_-]{12})(?![A-Za-z0-9_-])/.exec(body)?.[1];

  it("sends the texts with a document and only their key with its data request", async () => {
    const browser = browserFetch(app);
    const document = await (await browser.request("/order")).text();
    expect(document).toContain(SHARED_TEXT);
    const data = await (await browser.request("/order.data")).text();
    expect(data).not.toContain(SHARED_TEXT);
    expect(keyIn(data)).toMatch(/^ru\.customer\./);
    expect(keyIn(data)).toBe(keyIn(document));
  });

  it("serves the texts of a key for good, and today's texts, uncached, for an outdated one", async () => {
    const browser = browserFetch(app);
    const key = keyIn(await (await browser.request("/order.data")).text())!;
    const current = await fetch(`${app.url}/texts/${key}`);
    expect(current.status).toBe(200);
    expect(current.headers.get("Cache-Control")).toBe("public, max-age=31536000, immutable");
    const texts = (await current.json()) as Record<string, Record<string, unknown>>;
    expect(JSON.stringify(texts)).toContain(SHARED_TEXT);
    expect(texts.bo).toBeUndefined(); // customer pages do not carry the staff areas' texts

    const outdated = await fetch(`${app.url}/texts/ru.customer.AAAAAAAAAAAA`);
    expect(outdated.headers.get("Cache-Control")).toBe("no-store");
    expect(await outdated.json()).toEqual(texts);
    expect((await fetch(`${app.url}/texts/xx.customer.AAAAAAAAAAAA`)).status).toBe(404);
    expect((await fetch(`${app.url}/texts/ru.everything.AAAAAAAAAAAA`)).status).toBe(404);
  });

  it("gives each language and area its own key", async () => {
    const english = await browserIn(app, "domestic", "en");
    const enKey = keyIn(await (await english.request("/order.data")).text())!;
    expect(enKey).toMatch(/^en\.customer\./);
    const staffKey = keyIn(await (await english.request("/backoffice/login.data")).text())!;
    expect(staffKey).toMatch(/^en\.staff\./);
    const staff = (await (await fetch(`${app.url}/texts/${staffKey}`)).json()) as Record<string, unknown>;
    expect(staff.bo).toBeDefined();
  });
});
