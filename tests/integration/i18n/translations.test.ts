import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fillMissingTexts, httpMachineTranslator } from "~/modules/translations/machine.server";
import { CACHE_MS } from "~/modules/translations/overrides.server";
import { createTestDatabase, type TestDatabase } from "../../support/database";
import { type AppServer, browserFetch } from "../../support/app-server";
import { freePort } from "../../support/free-port";
import { browserIn, SECRETS } from "./support";
import { startApp, type TestApp } from "../../support/app";

/**
 * Staff overrides of interface texts (DESIGN §4.30, staff-partner-packer §2, §5, §7, §8): the editor
 * at /backoffice/translate, the override on the site at once on the instance that saved it and on
 * every other instance within the cache time, and machine translation of a missing text.
 */

type Browser = ReturnType<typeof browserFetch>;

async function staffBrowser(app: AppServer): Promise<Browser> {
  const browser = browserFetch(app);
  const response = await browser.request("/backoffice/login", { form: { password: SECRETS.BACKOFFICE_PASSWORD, redirectTo: "/backoffice/translate" } });
  expect(response.status).toBe(302);
  return browser;
}

/** Follows the redirect of a successful form post, as a browser would, and returns the page. */
async function follow(browser: Browser, response: Response): Promise<string> {
  expect(response.status).toBe(302);
  return (await browser.request(response.headers.get("Location")!)).text();
}

async function eventually(check: () => Promise<boolean>, timeoutMs = CACHE_MS * 4): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const version = async (t: TestDatabase) => Number((await t.db.selectFrom("translations_version").select("version").executeTakeFirstOrThrow()).version);

describe("the translation editor and overrides on two instances", () => {
  let t: TestDatabase;
  let first: TestApp;
  let second: TestApp;

  beforeAll(async () => {
    t = await createTestDatabase(6);
    [first, second] = await Promise.all([startApp({ database: t }), startApp({ database: t })]);
  });
  afterAll(async () => {
    await Promise.all([first?.close(), second?.close()]);
    await t?.drop();
  });

  const germanLanding = async (app: AppServer) => (await (await fetch(`${app.url}/de`)).text()).replace(/<script[\s\S]*?<\/script>/g, "");

  it("is behind the back-office gate, for reading and for writing", async () => {
    const stranger = browserFetch(first);
    const read = await stranger.request("/backoffice/translate");
    expect(read.status).toBe(302);
    expect(read.headers.get("Location")).toBe(`/backoffice/login?redirectTo=${encodeURIComponent("/backoffice/translate")}`);
    const write = await stranger.request("/backoffice/translate", { form: { intent: "add", originalText: "Цены", translatedText: "Hacked", targetLanguage: "en" } });
    expect(write.status).toBe(302);
    expect(await t.db.selectFrom("translations").selectAll().execute()).toEqual([]);
  });

  it("shows the editor with its tab, search, add form and counter", async () => {
    const staff = await staffBrowser(first);
    const html = await (await staff.request("/backoffice/translate")).text();
    expect(html).toContain("<h1>Переводы интерфейса</h1>");
    expect(html).toMatch(/<a[^>]*href="\/backoffice\/translate"[^>]*>Переводы<\/a>/);
    expect(html).toContain("Добавить перевод");
    expect(html).toContain("Показано 0 из 0");
    expect(html).toContain("Переводов пока нет");
  });

  it("refuses an incomplete or placeholder-losing translation with the spec's message, keeping what was typed", async () => {
    const staff = await staffBrowser(first);
    const empty = await staff.request("/backoffice/translate", { form: { intent: "add", originalText: "  ", translatedText: "", targetLanguage: "de" } });
    expect(empty.status).toBe(400);
    expect(await empty.text()).toContain("Заполните оригинальный текст и перевод");
    const lost = await staff.request("/backoffice/translate", { form: { intent: "add", originalText: "Заказ от {{amount}}", translatedText: "Bestellungen ab", targetLanguage: "de" } });
    expect(lost.status).toBe(400);
    const html = await lost.text();
    expect(html).toContain("Перевод должен содержать те же подстановки, что и оригинал: {{amount}}");
    expect(html).toContain(">Bestellungen ab</textarea>");
    expect(await t.db.selectFrom("translations").selectAll().execute()).toEqual([]);
  });

  it("adds a translation that shows on the site at once here and within the cache time on the other instance", async () => {
    const before = await version(t);
    // Warm both caches with the file texts first.
    expect(await germanLanding(first)).toContain("Bestellung aufgeben");
    expect(await germanLanding(second)).toContain("Bestellung aufgeben");

    const staff = await staffBrowser(first);
    const added = await staff.request("/backoffice/translate", { form: { intent: "add", originalText: "Оформить заказ", translatedText: "Jetzt verbindlich bestellen", targetLanguage: "de" } });
    const html = await follow(staff, added);
    expect(html).toContain("Перевод добавлен");
    expect(html).toContain("Показано 1 из 1");
    expect(html).toContain("Jetzt verbindlich bestellen");
    expect(html).toContain("Текстов интерфейса с этим оригиналом: 1");
    expect(await version(t)).toBeGreaterThan(before);

    expect(await germanLanding(first)).toContain("Jetzt verbindlich bestellen");
    await eventually(async () => (await germanLanding(second)).includes("Jetzt verbindlich bestellen"));
    // Other languages keep their own texts.
    expect(await (await fetch(`${second.url}/fr`)).text()).toContain("Passer commande");
  });

  it("overrides shared texts of every page and legal texts too", async () => {
    const staff = await staffBrowser(first);
    await follow(staff, await staff.request("/backoffice/translate", { form: { intent: "add", originalText: "Войти", translatedText: "Einloggen", targetLanguage: "de" } }));
    await follow(
      staff,
      await staff.request("/backoffice/translate", { form: { intent: "add", originalText: "8. Претензии", translatedText: "8. Beanstandungen", targetLanguage: "de" } }),
    );
    const german = await browserIn(first, "domestic", "de");
    expect(await (await german.request("/thankyou")).text()).toMatch(/href="\/auth"[^>]*>Einloggen</);
    expect(await (await german.request("/public-offer")).text()).toContain("8. Beanstandungen");
  });

  it("refuses a second translation of the same text into the same language", async () => {
    const staff = await staffBrowser(first);
    const duplicate = await staff.request("/backoffice/translate", { form: { intent: "add", originalText: "Оформить заказ", translatedText: "Noch einmal", targetLanguage: "de" } });
    expect(duplicate.status).toBe(400);
    expect(await duplicate.text()).toContain("Перевод этого текста на выбранный язык уже есть");
  });

  it("searches the original, the translation and both languages, case-insensitively", async () => {
    const staff = await staffBrowser(first);
    const search = async (q: string) => (await staff.request(`/backoffice/translate?q=${encodeURIComponent(q)}`)).text();
    const total = (await t.db.selectFrom("translations").select(sql<number>`count(*)::int`.as("n")).executeTakeFirstOrThrow()).n;
    expect(await search("оформить")).toContain(`Показано 1 из ${total}`);
    expect(await search("VERBINDLICH")).toContain(`Показано 1 из ${total}`);
    expect(await search("de")).toContain(`Показано ${total} из ${total}`);
    expect(await search("RU")).toContain(`Показано ${total} из ${total}`);
    const none = await search("100%_нет");
    expect(none).toContain(`Показано 0 из ${total}`);
    expect(none).toContain("Ничего не найдено");
  });

  it("edits a translation and the other instance follows", async () => {
    const staff = await staffBrowser(first);
    const row = await t.db.selectFrom("translations").selectAll().where("original_text", "=", "Оформить заказ").executeTakeFirstOrThrow();
    const edited = await staff.request("/backoffice/translate", {
      form: { intent: "update", id: row.id, originalText: "Оформить заказ", translatedText: "Auftrag erteilen", targetLanguage: "de", q: "заказ" },
    });
    expect(edited.headers.get("Location")).toBe(`/backoffice/translate?q=${encodeURIComponent("заказ")}`);
    expect(await follow(staff, edited)).toContain("Перевод обновлен");
    await eventually(async () => (await germanLanding(second)).includes("Auftrag erteilen"));
    const invalid = await staff.request("/backoffice/translate", { form: { intent: "update", id: row.id, originalText: "Оформить заказ", translatedText: " ", targetLanguage: "de" } });
    expect(invalid.status).toBe(400);
    expect(await invalid.text()).toContain("Заполните оригинальный текст и перевод");
  });

  it("asks before deleting, deletes, and the file text comes back everywhere", async () => {
    const staff = await staffBrowser(first);
    expect(await (await staff.request("/backoffice/translate")).text()).toContain("Вы уверены, что хотите удалить этот перевод?");
    const row = await t.db.selectFrom("translations").selectAll().where("original_text", "=", "Оформить заказ").executeTakeFirstOrThrow();
    expect(await follow(staff, await staff.request("/backoffice/translate", { form: { intent: "delete", id: row.id } }))).toContain("Перевод удален");
    await eventually(async () => (await germanLanding(second)).includes("Bestellung aufgeben"));
    const again = await staff.request("/backoffice/translate", { form: { intent: "delete", id: row.id } });
    expect(await follow(staff, again)).toContain("Перевод не найден");
  });
});

describe("machine translation of a missing text", () => {
  let t: TestDatabase;
  let app: TestApp;
  let translator: http.Server;
  const calls: Array<{ texts: string[]; targetLanguage: string; authorization: string | undefined }> = [];
  const MISSING_RU = "Загрузите STL-модели — остальное сделаем мы.";

  beforeAll(async () => {
    // A local double of the spec's translate-text function: German works, French fails.
    translator = http.createServer((request, response) => {
      let body = "";
      request.on("data", (chunk) => (body += chunk));
      request.on("end", () => {
        const { texts, targetLanguage } = JSON.parse(body) as { texts: string[]; targetLanguage: string };
        calls.push({ texts, targetLanguage, authorization: request.headers.authorization });
        if (targetLanguage === "fr") {
          response.writeHead(503).end("down");
          return;
        }
        response.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify({ translations: Object.fromEntries(texts.map((text) => [text, `[${targetLanguage}] ${text}`])) }));
      });
    });
    const port = await freePort();
    await new Promise<void>((resolve) => translator.listen(port, "127.0.0.1", resolve));
    // Locale files where one landing text is missing in German and French.
    const locales = fs.mkdtempSync(path.join(os.tmpdir(), "aligner-locales-"));
    fs.cpSync(path.resolve("locales"), locales, { recursive: true });
    for (const language of ["de", "fr"]) {
      const file = path.join(locales, language, "landing.json");
      const texts = JSON.parse(fs.readFileSync(file, "utf8"));
      delete texts.landing.cta.textShort;
      fs.writeFileSync(file, JSON.stringify(texts));
    }
    // Outside test mode a missing text is not an error but the Russian fallback the spec describes.
    app = await startApp({
      env: {
        APP_ENV: "development",
        LOCALES_DIR: locales,
        TRANSLATE_API_URL: `http://127.0.0.1:${port}/translate`,
        TRANSLATE_API_KEY: "mt-key",
      },
    });
    t = app.database;
  });
  afterAll(async () => {
    await app?.close();
    await new Promise((resolve) => translator?.close(resolve));
  });

  const stored = (language: string) =>
    t.db.selectFrom("translations").select(["translated_text"]).where("original_text", "=", MISSING_RU).where("target_language", "=", language).execute();

  it("shows Russian first, fills the text once, stores it, and shows the translation from then on", async () => {
    const first = await (await fetch(`${app.url}/de`)).text();
    expect(first).toContain(MISSING_RU);
    await eventually(async () => (await stored("de")).length === 1, 10_000);
    expect(await stored("de")).toEqual([{ translated_text: `[de] ${MISSING_RU}` }]);
    await eventually(async () => (await (await fetch(`${app.url}/de`)).text()).includes(`[de] ${MISSING_RU}`), 10_000);
    for (let i = 0; i < 3; i++) await fetch(`${app.url}/de`);
    const german = calls.filter((call) => call.targetLanguage === "de");
    expect(german).toHaveLength(1);
    expect(german[0]!.texts).toEqual([MISSING_RU]);
    expect(german[0]!.authorization).toBe("Bearer mt-key");
  });

  it("falls back to Russian silently when the service fails", async () => {
    const response = await fetch(`${app.url}/fr`);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain(MISSING_RU);
    await eventually(async () => calls.some((call) => call.targetLanguage === "fr"), 10_000);
    expect(await stored("fr")).toEqual([]);
    expect((await fetch(`${app.url}/fr`)).status).toBe(200);
  });

  it("ignores a duplicate-key race between instances storing the same text", async () => {
    const double = httpMachineTranslator({ url: `http://127.0.0.1:${(translator.address() as { port: number }).port}/translate` });
    const texts = ["Цены", "Материалы"];
    const results = await Promise.all([fillMissingTexts(t.db, double, "it", texts), fillMissingTexts(t.db, double, "it", texts), fillMissingTexts(t.db, double, "it", texts)]);
    expect(results.reduce((sum, n) => sum + n, 0)).toBe(2);
    const rows = await t.db.selectFrom("translations").select("original_text").where("target_language", "=", "it").orderBy("original_text").execute();
    expect(rows.map((row) => row.original_text)).toEqual(["Материалы", "Цены"]);
  });

  it("drops answers that lose a placeholder or repeat the original", async () => {
    const liar = { translate: async (texts: readonly string[]) => Object.fromEntries(texts.map((text) => [text, text.includes("{{") ? "ohne Platzhalter" : text])) };
    expect(await fillMissingTexts(t.db, liar, "es", ["Заказ от {{amount}}", "Цены"])).toBe(0);
  });
});
