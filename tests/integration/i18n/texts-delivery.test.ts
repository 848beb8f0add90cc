import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserFetch } from "../../support/app-server";
import { browserIn } from "./support";
import { startApp, type TestApp } from "../../support/app";

/** A text only the shared texts carry (the cookie notice), to tell whether they were sent. */
const SHARED_TEXT = "Мы используем cookie";

/**
 * The root loader's data carries only the interface texts' key, in documents and data requests
 * alike (ADR 022, 034). The server renders every text; a page with JavaScript loads its texts from
 * /texts/{key} (asked for from the document's head) before hydrating, and a client navigation to another key too.
 */
describe("interface texts: rendered by the server, by key in loader data", () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startApp({ poolSize: 2 });
  });
  afterAll(async () => {
    await app?.close();
  });

  const keyIn = (body: string) => /\b((?:ru|en|de|es|fr|it)\.(?:customer|staff)\.[A-Za-z0-9_-]{12})(?![A-Za-z0-9_-])/.exec(body)?.[1];

  /** The document's loader data: the stream Remix's inline script hands to hydration. */
  const loaderDataIn = (html: string) => /window\.__remixContext\.streamController\.enqueue\(([\s\S]*?)\);<\/script>/.exec(html)?.[1] ?? "";

  it("renders the texts into a document but sends only their key, in its loader data and its data request", async () => {
    const browser = browserFetch(app);
    const document = await (await browser.request("/order")).text();
    expect(document).toContain("Шаг 1 из 11"); // rendered by the server with the texts
    const loaderData = loaderDataIn(document);
    expect(loaderData).toContain("textsKey");
    expect(loaderData).not.toContain("messages");
    expect(loaderData).not.toContain("Шаг"); // no text of the shared texts in the encoded data
    const key = keyIn(loaderData)!;
    expect(key).toMatch(/^ru\.customer\./);
    // The page asks for its texts (data) from the head with a few bytes of inline script, with the answer's nonce.
    const early = /<script nonce="[^"]+" data-texts-key="([^"]+)">([^<]*)<\/script>/.exec(document);
    expect(early?.[1]).toBe(key);
    expect(early![2]).toBe(`window.__alignerTexts={key:"${key}",response:fetch("/texts/${key}")}`);
    expect(document.indexOf(early![0])).toBeLessThan(document.indexOf("</head>"));
    const data = await (await browser.request("/order.data")).text();
    expect(data).not.toContain(SHARED_TEXT);
    expect(keyIn(data)).toBe(key);
  });

  it("serves a page's texts as JSON for good under their key, today's texts for an outdated key, 404 for an unknown area", async () => {
    const browser = browserFetch(app);
    const key = keyIn(await (await browser.request("/order.data")).text())!;
    const answer = await fetch(`${app.url}/texts/${key}`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get("Content-Type")).toBe("application/json; charset=utf-8");
    expect(answer.headers.get("Cache-Control")).toBe("public, max-age=31536000, immutable");
    expect(JSON.stringify(await answer.json())).toContain(SHARED_TEXT);

    const outdated = await fetch(`${app.url}/texts/ru.customer.AAAAAAAAAAAA`);
    expect(outdated.status).toBe(200);
    expect(outdated.headers.get("Cache-Control")).toBe("no-store");
    expect((await fetch(`${app.url}/texts/xx.customer.AAAAAAAAAAAA`)).status).toBe(404);
    // The texts are data: nothing of them is served as a script.
    expect((await fetch(`${app.url}/texts/${key}.js`)).headers.get("Content-Type")).not.toMatch(/javascript/);
  });

  it("leaves the texts out of pages without JavaScript", async () => {
    const landing = await (await browserFetch(app).request("/")).text();
    expect(landing).not.toContain("/texts/");
    expect(landing).toContain(SHARED_TEXT); // the cookie notice, rendered by the server
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
