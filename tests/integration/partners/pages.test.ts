import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUserSession } from "~/modules/auth/session.server";
import { RESERVED_ROUTE_WORDS } from "~/modules/partners/codes";
import type { TestDatabase } from "../../support/database";
import { browserFetch } from "../../support/app-server";
import { buildOrderIn } from "../../support/builders";
import { SECRETS, startApp, type TestApp } from "../../support/app";

type Browser = ReturnType<typeof browserFetch>;

/** The partner cabinet, the offer page and the back-office partner screen over HTTP. */
describe("partner pages over HTTP", () => {
  let t: TestDatabase;
  let app: TestApp;

  beforeAll(async () => {
    app = await startApp();
    t = app.database;
  });
  afterAll(async () => {
    await app?.close();
  });

  async function signedIn(email: string): Promise<Browser> {
    const user = await t.db.insertInto("users").values({ email }).onConflict((oc) => oc.column("email").doUpdateSet({ email })).returning("id").executeTakeFirstOrThrow();
    const browser = browserFetch(app);
    browser.jar.set("__session", (await createUserSession(t.db, user.id)).split(";")[0]!.split("=").slice(1).join("="));
    return browser;
  }

  async function staff(): Promise<Browser> {
    const browser = browserFetch(app);
    const login = await browser.request("/backoffice/login", { form: { password: SECRETS.BACKOFFICE_PASSWORD, redirectTo: "/backoffice/affiliates" } });
    expect(login.headers.get("Location")).toBe("/backoffice/affiliates");
    return browser;
  }

  const codeOf = (email: string) => t.db.selectFrom("partner_codes").selectAll().where("user_email", "=", email).executeTakeFirstOrThrow();
  const codesOf = (email: string) => t.db.selectFrom("partner_codes").select("id").where("user_email", "=", email).execute();
  /** "Получить партнёрский код", the page's own post. */
  const askForCode = (browser: Browser) => browser.request("/partner", { form: { intent: "create" } });

  it("sends a visitor who is not signed in to sign-in, for GET and POST", async () => {
    const anonymous = browserFetch(app);
    const page = await anonymous.request("/partner");
    expect(page.status).toBe(302);
    expect(page.headers.get("Location")).toBe("/auth?redirectTo=%2Fpartner");
    const post = await anonymous.request("/partner", { form: { intent: "name", user_name: "Взлом" } });
    expect(post.status).toBe(302);
    expect(post.headers.get("Location")).toMatch(/^\/auth\?redirectTo=/);
    expect(await t.db.selectFrom("partner_codes").select("id").where("user_name", "=", "Взлом").execute()).toEqual([]);
  });

  it("creates nothing when the page is opened, even from another site; its button's post creates the code", async () => {
    const browser = await signedIn("partner-asked@clinic.ru");
    // A link or an image on another site: the browser sends the session cookie with a top-level GET (SameSite=Lax).
    const crossSite = await fetch(`${app.url}/partner`, { headers: { Cookie: browser.jar.header(), "Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "navigate", Referer: "https://evil.example/" }, redirect: "manual" });
    expect(crossSite.status).toBe(200);
    const offer = await crossSite.text();
    expect(offer).toContain("Получить партнёрский код");
    expect(offer).toMatch(/<form method="post"[^>]*>.*?<input type="hidden" name="intent" value="create"\/>/s);
    expect((await browser.request("/partner")).status).toBe(200);
    expect(await codesOf("partner-asked@clinic.ru")).toEqual([]);
    // The same post from another site is refused (DESIGN §4.22) and creates nothing either.
    const forged = await fetch(`${app.url}/partner`, { method: "POST", headers: { Cookie: browser.jar.header(), Origin: "https://evil.example", "Sec-Fetch-Site": "cross-site" }, body: new URLSearchParams({ intent: "create" }), redirect: "manual" });
    expect(forged.status).toBe(403);
    expect(await codesOf("partner-asked@clinic.ru")).toEqual([]);

    // The button: POST, then back to the page (POST-redirect-GET), which shows the code.
    const created = await askForCode(browser);
    expect(created.status).toBe(302);
    expect(created.headers.get("Location")).toBe("/partner");
    const code = await codeOf("partner-asked@clinic.ru");
    expect(await (await browser.request("/partner")).text()).toContain(code.code);
    // Asked again (a second tab, a double click), the code stays the one.
    await askForCode(browser);
    expect(await codesOf("partner-asked@clinic.ru")).toHaveLength(1);
  });

  it("gives a signed-in user one six-letter code when asked, and the link once a name is saved", async () => {
    const browser = await signedIn("partner-one@clinic.ru");
    expect((await askForCode(browser)).status).toBe(302);
    const first = await browser.request("/partner");
    expect(first.status).toBe(200);
    const html = await first.text();
    const code = await codeOf("partner-one@clinic.ru");
    expect(code.code).toMatch(/^[A-Z]{6}$/);
    expect(RESERVED_ROUTE_WORDS).not.toContain(code.code);
    expect(html).toContain(code.code);
    expect(html).toContain("Ссылка появится, когда вы сохраните имя.");
    expect(html).not.toContain(`${app.url}/${code.code}`);
    await askForCode(browser);
    expect(await codesOf("partner-one@clinic.ru")).toHaveLength(1);

    const empty = await browser.request("/partner", { form: { intent: "name", user_name: "   " } });
    expect(empty.status).toBe(400);
    const refused = await empty.text();
    expect(refused).toContain('<p id="partner-name-error" class="field-error">Имя не может быть пустым</p>');
    expect(refused).toMatch(/id="partner-name"[^>]*aria-invalid="true"[^>]*aria-describedby="partner-name-error"/);

    const saved = await browser.request("/partner", { form: { intent: "name", user_name: "  Клиника «Улыбка»  " } });
    expect(saved.status).toBe(302);
    expect(saved.headers.get("Location")).toBe("/partner");
    const after = await (await browser.request("/partner")).text();
    expect(after).toContain("Имя сохранено");
    expect(after).toMatch(new RegExp(`<input id="partner-link"[^>]*readonly=""[^>]*value="${app.url}/${code.code}"`, "i"));
    expect((await codeOf("partner-one@clinic.ru")).user_name).toBe("Клиника «Улыбка»");
  });

  it("checks the contacts with the spec's texts and records the offer acceptance once", async () => {
    const browser = await signedIn("partner-two@clinic.ru");
    await askForCode(browser);
    const empty = await browser.request("/partner", { form: { intent: "contacts", contact_email: "", contact_phone: "", offer: "on" } });
    expect(empty.status).toBe(400);
    const emptyHtml = await empty.text();
    expect(emptyHtml).toContain("Заполните все поля");
    expect(emptyHtml).toContain('<p id="partner-contact-phone-error" class="field-error">Телефон и e-mail обязательны</p>');
    expect(emptyHtml).toContain('<p id="partner-contact-email-error" class="field-error">Телефон и e-mail обязательны</p>');

    const noConsent = await browser.request("/partner", { form: { intent: "contacts", contact_email: "buh@clinic.ru", contact_phone: "+7 900 000-00-00" } });
    expect(noConsent.status).toBe(400);
    const noConsentHtml = await noConsent.text();
    expect(noConsentHtml).toContain("Требуется согласие");
    expect(noConsentHtml).toContain('<p id="partner-offer-error" class="field-error">Подтвердите ознакомление с договором-офертой</p>');
    expect(noConsentHtml).toMatch(/id="partner-offer"[^>]*aria-invalid="true"/);
    expect((await codeOf("partner-two@clinic.ru")).offer_accepted_at).toBeNull();

    const saved = await browser.request("/partner", { form: { intent: "contacts", contact_email: " Buh@Clinic.ru ", contact_phone: "+7 900 000-00-00", offer: "on" } });
    expect(saved.status).toBe(302);
    const accepted = await codeOf("partner-two@clinic.ru");
    expect(accepted).toMatchObject({ contact_email: "buh@clinic.ru", contact_phone: "+7 900 000-00-00" });
    expect(accepted.offer_accepted_at).toBeInstanceOf(Date);
    const page = await (await browser.request("/partner")).text();
    expect(page).toContain("Контактные данные обновлены");
    expect(page).toContain("Условия приняты");

    // Later saves need no checkbox and keep the first acceptance time.
    const later = await browser.request("/partner", { form: { intent: "contacts", contact_email: "buh@clinic.ru", contact_phone: "+7 900 111-11-11" } });
    expect(later.status).toBe(302);
    const kept = await codeOf("partner-two@clinic.ru");
    expect(kept.contact_phone).toBe("+7 900 111-11-11");
    expect(kept.offer_accepted_at).toEqual(accepted.offer_accepted_at);
  });

  it("lists only the partner's own referrals' orders, with search and filters", async () => {
    const browser = await signedIn("partner-three@clinic.ru");
    await askForCode(browser);
    const mine = await codeOf("partner-three@clinic.ru");
    const other = await t.db.insertInto("partner_codes").values({ code: "OTHERP", user_email: "other@partner.ru" }).returning("id").executeTakeFirstOrThrow();
    await t.db.insertInto("partner_affiliates").values([
      { partner_code_id: mine.id, affiliate_email: "ref-active@clinic.ru" },
      { partner_code_id: mine.id, affiliate_email: "ref-old@clinic.ru" },
      { partner_code_id: other.id, affiliate_email: "not-mine@clinic.ru" },
    ]).execute();
    const active = await buildOrderIn(t.db, "paid", { email: "ref-active@clinic.ru", fullName: "Клиника Альфа" });
    const processing = await buildOrderIn(t.db, "processing", { email: "ref-active@clinic.ru", fullName: "Клиника Альфа" });
    const old = await buildOrderIn(t.db, "completed", { email: "ref-old@clinic.ru", fullName: "Клиника Бета" });
    await t.db.updateTable("orders").set({ paid_at: new Date(Date.now() - 400 * 86_400_000) }).where("id", "=", old.id).execute();
    const draft = await buildOrderIn(t.db, "draft", { email: "ref-active@clinic.ru" });
    const foreign = await buildOrderIn(t.db, "paid", { email: "not-mine@clinic.ru", fullName: "Чужая клиника" });
    const number = (id: string) => `<code>${id.slice(0, 4).toUpperCase()}</code>`;

    const all = await (await browser.request("/partner")).text();
    for (const order of [active, processing, old]) expect(all).toContain(number(order.id));
    expect(all).not.toContain(number(draft.id));
    expect(all).not.toContain(number(foreign.id));
    expect(all).not.toContain("Чужая клиника");
    // 10 % of three orders of 12 500 ₽: the old referral's year is over, but its one order was paid within it.
    expect(all).toContain("Привлечённых клиентов: 2, активных: 1");
    expect(all).toMatch(/Начислено<\/dt><dd>3\s750\s₽/);

    const processingOnly = await (await browser.request("/partner?status=processing")).text();
    expect(processingOnly).toContain(number(processing.id));
    expect(processingOnly).not.toContain(number(active.id));
    const inactive = await (await browser.request("/partner?activity=inactive")).text();
    expect(inactive).toContain(number(old.id));
    expect(inactive).not.toContain(number(active.id));
    const byName = await (await browser.request(`/partner?q=${encodeURIComponent("бета")}`)).text();
    expect(byName).toContain(number(old.id));
    expect(byName).not.toContain(number(active.id));
    const byNumber = await (await browser.request(`/partner?q=${active.id.slice(0, 4).toUpperCase()}`)).text();
    expect(byNumber).toContain(number(active.id));
    expect(await (await browser.request("/partner?q=nobody%40nowhere")).text()).toContain("Ничего не найдено");
  });

  it("shows the offer agreement to anyone, in the visitor's language", async () => {
    const russian = await fetch(`${app.url}/refdoc`);
    expect(russian.status).toBe(200);
    const html = await russian.text();
    expect(html).toContain("<h1>Договор-оферта партнёрской программы</h1>");
    expect(html).toContain("4. Вознаграждение");
    expect(html).toContain("одного года");
    const english = browserFetch(app);
    await english.request("/language", { form: { lng: "en", redirectTo: "/refdoc" } });
    const translated = await (await english.request("/refdoc")).text();
    expect(translated).toContain("Partner programme offer agreement");
    expect(translated).toContain("the Russian text is legally binding");
  });

  it("keeps the back-office partner screen behind the staff guard", async () => {
    const anonymous = browserFetch(app);
    const page = await anonymous.request("/backoffice/affiliates");
    expect(page.status).toBe(302);
    expect(page.headers.get("Location")).toBe("/backoffice/login?redirectTo=%2Fbackoffice%2Faffiliates");
    const client = await signedIn("client-not-staff@clinic.ru");
    expect((await client.request("/backoffice/affiliates")).status).toBe(302);
    const mine = await t.db.insertInto("partner_codes").values({ code: "GUARDS", user_email: "guard@partner.ru" }).returning("id").executeTakeFirstOrThrow();
    const post = await client.request("/backoffice/affiliates", { form: { intent: "add_payout", partner_code_id: mine.id, amount: "100", year: "2026", quarter: "1" } });
    expect(post.status).toBe(302);
    expect(post.headers.get("Location")).toMatch(/^\/backoffice\/login/);
    expect(await t.db.selectFrom("partner_payouts").select("id").where("partner_code_id", "=", mine.id).execute()).toEqual([]);
  });

  it("adds and deletes payouts and sets the percentage with the spec's checks", async () => {
    const office = await staff();
    const partner = await t.db
      .insertInto("partner_codes")
      .values({ code: "PAYOUT", user_email: "payout@partner.ru", user_name: "ООО «Партнёр»" })
      .returning(["id", "code"])
      .executeTakeFirstOrThrow();
    const list = await (await office.request("/backoffice/affiliates?q=payout")).text();
    expect(list).toContain("PAYOUT");
    expect(list).toContain("ООО «Партнёр»");
    expect(list).toContain("Партнёры");
    // Defaults to the current year and quarter (Moscow time).
    const now = new Date(Date.now() + 3 * 3_600_000);
    expect(list).toMatch(new RegExp(`id="payout-year-PAYOUT"[^>]*value="${now.getUTCFullYear()}"`));
    expect(list).toMatch(new RegExp(`id="payout-quarter-PAYOUT"[^>]*value="${Math.floor(now.getUTCMonth() / 3) + 1}"`));

    const post = (form: Record<string, string>) => office.request("/backoffice/affiliates?q=payout", { form: { partner_code_id: partner.id, ...form } });
    const zero = await post({ intent: "add_payout", amount: "0", year: "2026", quarter: "2" });
    expect(zero.status).toBe(400);
    const zeroHtml = await zero.text();
    expect(zeroHtml).toContain('<p id="payout-amount-PAYOUT-error" class="field-error">Введите сумму больше 0</p>');
    expect(zeroHtml).toMatch(/id="payout-amount-PAYOUT"[^>]*aria-invalid="true"[^>]*aria-describedby="payout-amount-PAYOUT-error"/);
    expect(zeroHtml).toMatch(/<details open="">/);
    const quarter = await post({ intent: "add_payout", amount: "100", year: "2026", quarter: "5" });
    expect(quarter.status).toBe(400);
    expect(await quarter.text()).toContain('<p id="payout-quarter-PAYOUT-error" class="field-error">Квартал должен быть от 1 до 4</p>');

    const added = await post({ intent: "add_payout", amount: "1 234,56", year: "2026", quarter: "2", note: "  акт № 7  " });
    expect(added.status).toBe(302);
    expect(added.headers.get("Location")).toBe("/backoffice/affiliates?q=payout&open=PAYOUT#partner-PAYOUT");
    const payout = await t.db.selectFrom("partner_payouts").selectAll().where("partner_code_id", "=", partner.id).executeTakeFirstOrThrow();
    expect(payout).toMatchObject({ amount: 123_456, currency: "rub", period_year: 2026, period_quarter: 2, note: "акт № 7" });
    expect(payout.created_by).toMatch(/^back-office password/);
    const shown = await (await office.request("/backoffice/affiliates?q=payout&open=PAYOUT")).text();
    expect(shown).toContain("Выплата добавлена");
    expect(shown).toContain("II кв. 2026");
    expect(shown).toMatch(/К выплате<\/dt><dd><strong>-1\s235\s₽<\/strong>/);

    // A payout id of another partner deletes nothing.
    const stranger = await t.db.insertInto("partner_codes").values({ code: "STRANG", user_email: "stranger@partner.ru" }).returning("id").executeTakeFirstOrThrow();
    const wrong = await office.request("/backoffice/affiliates", { form: { intent: "delete_payout", partner_code_id: stranger.id, payout_id: payout.id } });
    expect(wrong.status).toBe(302);
    expect(await (await office.request("/backoffice/affiliates")).text()).toContain("Не удалось удалить выплату");
    const deleted = await post({ intent: "delete_payout", payout_id: payout.id });
    expect(deleted.status).toBe(302);
    expect(await (await office.request("/backoffice/affiliates?q=payout")).text()).toContain("Выплата удалена");
    expect(await t.db.selectFrom("partner_payouts").select("id").where("partner_code_id", "=", partner.id).execute()).toEqual([]);

    const percentageOf = async () => Number((await t.db.selectFrom("partner_codes").select("reward_percentage").where("id", "=", partner.id).executeTakeFirstOrThrow()).reward_percentage);
    for (const value of ["0", "150", "abc"]) {
      const refused = await post({ intent: "set_percentage", percentage: value });
      expect(refused.status).toBe(400);
      expect(await refused.text()).toContain('<p id="percentage-input-PAYOUT-error" class="field-error">Процент должен быть в диапазоне 0-100</p>');
    }
    expect(await percentageOf()).toBe(10);
    expect((await post({ intent: "set_percentage", percentage: "" })).status).toBe(302);
    expect(await (await office.request("/backoffice/affiliates?q=payout")).text()).toContain("Процент не изменён");
    expect(await percentageOf()).toBe(10);
    expect((await post({ intent: "set_percentage", percentage: "12,5" })).status).toBe(302);
    const updated = await (await office.request("/backoffice/affiliates?q=payout")).text();
    expect(updated).toContain("Процент вознаграждения обновлен");
    expect(updated).toContain("12,50 %");
    expect(await percentageOf()).toBe(12.5);
  });
  it("lists partners by their heads and reads one partner's payouts, referrals and orders only when it is opened", async () => {
    const office = await staff();
    const codes = ["HEADAA", "HEADBB", "HEADCC"];
    const ids: string[] = [];
    for (const code of codes) {
      const row = await t.db.insertInto("partner_codes").values({ code, user_email: `${code.toLowerCase()}@heads.ru`, user_name: `Партнёр ${code}` }).returning("id").executeTakeFirstOrThrow();
      ids.push(row.id);
      await t.db.insertInto("partner_payouts").values({ partner_code_id: row.id, amount: 12_300, period_year: 2026, period_quarter: 3, note: `выплата ${code}`, created_by: "manager@lab.ru" }).execute();
    }
    const list = await (await office.request("/backoffice/affiliates?q=heads.ru")).text();
    for (const code of codes) {
      expect(list).toContain(`Партнёр ${code}`);
      expect(list).toContain(`href="/backoffice/affiliates?q=heads.ru&amp;open=${code}#partner-${code}"`);
      expect(list).not.toContain(`выплата ${code}`);
      expect(list).not.toContain(`id="payout-amount-${code}"`);
    }
    const opened = await (await office.request("/backoffice/affiliates?q=heads.ru&open=HEADBB")).text();
    expect(opened).toContain("выплата HEADBB");
    expect(opened).toContain("III кв. 2026");
    expect(opened).toContain("manager@lab.ru");
    expect(opened).toContain('id="payout-amount-HEADBB"');
    expect(opened).not.toContain("выплата HEADAA");
    expect(opened).not.toContain("выплата HEADCC");
    // A search that finds one partner shows that partner whole.
    expect(await (await office.request("/backoffice/affiliates?q=headcc")).text()).toContain("выплата HEADCC");
  });
});
