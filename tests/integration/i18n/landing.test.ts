import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cookies } from "~/modules/http/request/cookies.server";
import { LANGUAGES } from "~/modules/i18n/languages";
import { formatPriceSetAmount, PRICE_SETS } from "~/modules/pricing/price-sets";
import type { TestDatabase } from "../../support/database";
import { browserFetch } from "../../support/app-server";
import { browserIn, MARKET_HOSTS, marketBrowser } from "./support";
import { startApp, type TestApp } from "../../support/app";

/** The landing, partner codes and the legal pages over HTTP (issue "public face", items 1, 2, 4). */
describe("the landing and the legal pages", () => {
  let t: TestDatabase;
  let app: TestApp;

  beforeAll(async () => {
    app = await startApp({ env: { ...MARKET_HOSTS } });
    t = app.database;
    await t.db
      .insertInto("partner_codes")
      .values({ code: "NEVSKY", user_email: "partner@ortho-nw.ru", user_name: "Учебный центр" })
      .execute();
  });
  afterAll(async () => {
    await app?.close();
  });

  /** The page as served, and its markup without the serialized loader data (which carries texts of hidden parts). */
  const page = async (path: string, market: "domestic" | "international" = "domestic") => {
    const response = await marketBrowser(app, market).request(path);
    const html = await response.text();
    return { response, html, markup: html.replace(/<script[\s\S]*?<\/script>/g, "") };
  };

  it("makes every landing claim of the spec in Russian", async () => {
    const { response, html } = await page("/");
    expect(response.status).toBe(200);
    const claims = [
      "Отгрузка в течение 48 часов с начала производства",
      "Работаем 7 дней в неделю, круглосуточно",
      "Многоступенчатый контроль качества",
      "Промышленная 3D-печать моделей с точностью 35 микрон",
      "Вакуумформер: до 4 элайнеров за один цикл при давлении 4 атмосферы",
      "Обрезка до 40 секунд на элайнер",
      "Поднутрения заполняем воском вручную, если ваша программа этого не делает",
      "Машинная обрезка по вашей линии обрезки, если вы её прислали",
      "Индивидуальная упаковка white label",
      "Один заказ на нескольких пациентов",
      "Материалы: однослойный PETG и многослойный TPU",
      "Гарантия возврата денег 100%: если элайнеры не подошли, верните их в течение двух недель",
      "Полные условия возврата — в публичной оферте",
      "Партнёрская программа",
    ];
    for (const claim of claims) expect(html, claim).toContain(claim);
  });

  it("has every section, the six manufacturing steps, the four equipment cards and the materials of §3", async () => {
    const { html } = await page("/");
    for (const id of ["why", "process", "materials", "guarantees", "pricing", "partners"]) expect(html).toContain(`id="${id}"`);
    for (const step of ["3D-печать моделей", "Подготовка моделей", "Формовка", "Обрезка и финишная обработка", "Контроль качества", "Упаковка и отправка"]) {
      expect(html).toContain(`<h3>${step}</h3>`);
    }
    expect(html.match(/class="card equipment-card"/g)).toHaveLength(4);
    for (const spec of ["PETG 0,75 мм", "TPU 0,75 мм", "0,60 мм", "0,40 мм", "1 мм"]) expect(html).toContain(spec);
    // The guarantee section's contact button scrolls to the contacts in the footer.
    expect(html).toMatch(/href="#contacts"[^>]*>Связаться с нами</);
    expect(html).toContain('id="contacts"');
  });

  it("starts a fresh order from every call to order: a POST form, never a link", async () => {
    const { html } = await page("/");
    const forms = html.match(/<form[^>]*action="\/order\/new"[^>]*>/g) ?? [];
    expect(forms.length).toBe(3);
    for (const form of forms) expect(form).toMatch(/method="post"/);
    expect(html).not.toMatch(/<a[^>]*href="\/order"/);
    expect(html).toContain("Оформить заказ");
    const browser = browserFetch(app);
    const started = await browser.request("/order/new", { form: {} });
    expect(started.status).toBe(302);
    expect(started.headers.get("Location")).toBe("/order");
  });

  it("keeps the language a visitor opened the landing in for the order that follows", async () => {
    const browser = browserFetch(app);
    expect((await browser.request("/de")).status).toBe(200);
    await browser.request("/order/new", { form: {} });
    const wizard = await (await browser.request("/order")).text();
    expect(wizard).toContain('lang="de"');
    expect(wizard).toContain("Schritt 1 von 11");
    // The plain address keeps the saved choice; another language path replaces it.
    expect(await (await browser.request("/")).text()).toContain('lang="de"');
    await browser.request("/en");
    expect(await (await browser.request("/order")).text()).toContain("Step 1 of 11");
  });

  it("shows the rouble price set with the minimum-order and regular-customer cards on the domestic market", async () => {
    const { html } = await page("/");
    const set = PRICE_SETS.rub;
    for (const amount of [set.singleLayerMaterial, set.threeLayerMaterial, set.softMatrix, set.retainer, set.delivery]) {
      expect(html).toContain(formatPriceSetAmount(amount, "rub", "ru"));
    }
    expect(html).toContain("Матрица мягкая");
    expect(html).toContain(`Заказ от ${formatPriceSetAmount(set.minimumOrder, "rub", "ru")}`);
    expect(html).toContain(`При сумме заказов за месяц свыше ${formatPriceSetAmount(set.monthlyThreshold, "rub", "ru")}`);
    expect(html).toContain("Работу начинаем в течение 24 часов после оплаты, заказ отгружаем в течение 48 часов с начала производства.");
    expect(html).toMatch(/<a[^>]*href="https:\/\/wa\.me\/[^"]*"[^>]*>Задать вопрос в WhatsApp</);
  });

  it("shows the euro set in English on the international market, without the two domestic sections, soft matrices or domestic notes", async () => {
    const { markup: html } = await page("/", "international");
    expect(html).toContain('<html lang="en">');
    const set = PRICE_SETS.eur;
    expect(html).toContain(formatPriceSetAmount(set.singleLayerMaterial, "eur", "en"));
    expect(html).toContain(formatPriceSetAmount(set.delivery, "eur", "en"));
    expect(html).not.toContain("₽");
    for (const id of ["guarantees", "partners"]) expect(html).not.toContain(`id="${id}"`);
    expect(html).not.toContain("Soft matrix");
    expect(html).not.toContain("Orders from");
    expect(html).not.toContain("For regular customers");
    // Neither the footer nor the landing links the public offer or the data consent there.
    expect(html).not.toContain('href="/public-offer"');
    expect(html).not.toContain('href="/data-consent"');
    expect(html).toContain('href="/privacy"');
  });

  it("keeps the film out of the page until asked for, and ships no JavaScript at all", async () => {
    const { html } = await page("/");
    expect(html).toMatch(/<details class="video-details"><summary class="video-poster">/);
    expect(html).toMatch(/<video class="video-player" src="\/build\/_assets\/production-[A-Z0-9]+\.webm" controls="" preload="none"/);
    expect(html).toContain('poster="data:image/svg+xml,');
    expect(html).not.toMatch(/<img/);
    // Every part works as HTML (ADR 016): no script, no module preload, no serialized loader data.
    expect(html).not.toMatch(/<script/);
    expect(html).not.toMatch(/modulepreload/);
  });

  it("names its language versions with absolute hreflang alternates and a canonical URL", async () => {
    const { html } = await page("/de");
    for (const language of LANGUAGES) expect(html).toContain(`<link rel="alternate" hrefLang="${language}" href="${app.url}/${language}"/>`);
    expect(html).toContain(`<link rel="alternate" hrefLang="x-default" href="${app.url}/"/>`);
    expect(html).toContain(`<link rel="canonical" href="${app.url}/de"/>`);
    expect(html).toContain('<html lang="de">');
  });

  describe("partner codes", () => {
    const partnerCookie = async (response: Response) => {
      const header = response.headers.getSetCookie().find((cookie) => cookie.startsWith("partner="));
      return header ? await cookies.partnerCode().parse(header.split(";")[0]!) : null;
    };

    it("keep an existing code from /{code} in a 30-day cookie and show the landing", async () => {
      for (const path of ["/NEVSKY", "/nevsky"]) {
        const response = await fetch(`${app.url}${path}`, { redirect: "manual" });
        expect(response.status, path).toBe(200);
        expect(await response.text()).toContain("Элайнеры, матрицы и ретейнеры по вашим STL-моделям");
        expect(await partnerCookie(response)).toBe("NEVSKY");
        const header = response.headers.getSetCookie().find((cookie) => cookie.startsWith("partner="))!;
        expect(header).toMatch(/Max-Age=2592000/);
        expect(header).toMatch(/HttpOnly/i);
        expect(header).toMatch(/SameSite=Lax/i);
      }
    });

    it("show the 404 page for anything that is neither a language nor an existing code", async () => {
      for (const path of ["/ABCDEF", "/zz", "/EN", "/english", "/NEVSKY1"]) {
        const response = await fetch(`${app.url}${path}`, { redirect: "manual" });
        expect(response.status, path).toBe(404);
        expect(await response.text()).toContain("Oops! Page not found");
        expect(await partnerCookie(response)).toBeNull();
      }
    });

    it("also arrive as ?partner= on any landing URL; an unknown one is ignored", async () => {
      const known = await fetch(`${app.url}/en?partner=nevsky`, { redirect: "manual" });
      expect(known.status).toBe(200);
      expect(await partnerCookie(known)).toBe("NEVSKY");
      const unknown = await fetch(`${app.url}/?partner=ZZZZZZ`, { redirect: "manual" });
      expect(unknown.status).toBe(200);
      expect(await partnerCookie(unknown)).toBeNull();
    });

    it("never shadow a real page", async () => {
      expect((await page("/privacy")).html).toContain("<h1>Политика конфиденциальности</h1>");
    });
  });

  describe("legal pages", () => {
    it("state the terms of the spec in the public offer, with the way back home", async () => {
      const { response, html } = await page("/public-offer");
      expect(response.status).toBe(200);
      expect(html).toContain("<h1>Публичная оферта</h1>");
      const terms = [
        "в течение 14 календарных дней (двух недель) с момента получения",
        "возвращаются все элайнеры заказа — неиспользованные, в оригинальной упаковке",
        "расходы на обратную пересылку несёт Заказчик",
        "в течение 3 рабочих дней с момента получения изделий",
        "неустойку 0,1% от неоплаченной суммы за каждый день просрочки",
        "неустойку 0,1% от оплаченной суммы за каждый день просрочки",
        "в течение 5 лет",
        "в течение 10 рабочих дней с момента её получения",
        "в течение 14 календарных дней с момента получения изделий",
        "в течение 2 рабочих дней с момента получения изделий",
        "не менее чем за 14 календарных дней",
        "в течение 24 часов после оплаты и отгружает заказ в течение 48 часов с начала производства",
        `Минимальная сумма заказа — ${formatPriceSetAmount(PRICE_SETS.rub.minimumOrder, "rub", "ru")}`,
        "support@aligner.local",
      ];
      for (const term of terms) expect(html, term).toContain(term);
      expect(html).toMatch(/<a class="button"[^>]*href="\/"[^>]*>Вернуться на главную<\/a>/);
    });

    it("are structured documents: a title, contents linking to numbered sections, lists where the text lists", async () => {
      for (const [path, title] of [
        ["/privacy", "Политика конфиденциальности"],
        ["/terms", "Условия использования"],
        ["/data-consent", "Согласие на обработку персональных данных"],
      ] as const) {
        const { response, html } = await page(path);
        expect(response.status, path).toBe(200);
        expect(html).toContain(`<h1>${title}</h1>`);
        expect(html).toContain("Редакция от");
        const anchors = [...html.matchAll(/<li><a href="#(\w+)">/g)].map((match) => match[1]);
        expect(anchors.length, path).toBeGreaterThanOrEqual(6);
        for (const anchor of anchors) expect(html).toContain(`<section id="${anchor}"`);
        expect(html).toMatch(/<title>[^<]+ — Aligner Lab<\/title>/);
      }
      expect((await page("/privacy")).html).toMatch(/<ul><li>Контактные данные заказчика/);
    });

    it("speak the reader's language, say the Russian text prevails, and lead home in that language", async () => {
      const browser = await browserIn(app, "domestic", "en");
      const html = await (await browser.request("/public-offer")).text();
      expect(html).toContain("<h1>Public offer</h1>");
      expect(html).toContain("within 3 working days of receiving the appliances");
      expect(html).toContain("the Russian version of the document prevails");
      expect(html).toContain(`The minimum order value is ${formatPriceSetAmount(PRICE_SETS.rub.minimumOrder, "rub", "en")}`);
      expect(html).toMatch(/<a class="button"[^>]*href="\/en"[^>]*>Back to home<\/a>/);
    });

    it("show the footer links to the offer and the consent only on the domestic market", async () => {
      const footer = (html: string) => html.match(/<footer[\s\S]*?<\/footer>/)?.[0] ?? "";
      expect(footer((await page("/terms")).html)).toContain('href="/data-consent"');
      // The footer only: each legal page also lists its market's other documents (ADR 024).
      const international = footer((await page("/terms", "international")).markup);
      expect(international).toContain('href="/privacy"');
      expect(international).not.toContain('href="/data-consent"');
      expect(international).not.toContain('href="/public-offer"');
    });
  });
});
