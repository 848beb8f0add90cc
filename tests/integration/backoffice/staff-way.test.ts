import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserFetch } from "../../support/app-server";
import { buildOrderIn, buildPatient } from "../../support/builders";
import type { TestDatabase } from "../../support/database";
import { startApp, type TestApp } from "../../support/app";
import { follow, gatePassed, rendered, signedInAs, toastOf, type Browser } from "./support";

/** A page's text as read: no scripts, tags or React's text separators. */
const textOf = (html: string) => rendered(html).replace(/<!-- -->/g, "").replace(/<[^>]+>/g, " ").replace(/\s+/g, " ");

/**
 * Staff find their way (ADR 069): the gate and the 403 say how to get access; one role form whose
 * address field suggests staff and past staff, never customers; the last role goes after a
 * question; the catalogue of texts with what is missing and the overrides marked; the conditions'
 * base prices; the order's own page with its parts, and a 404 for an id that is no order's.
 */
describe("staff find their way", () => {
  let t: TestDatabase;
  let app: TestApp;
  let admin: Browser;

  beforeAll(async () => {
    app = await startApp();
    t = app.database;
    admin = await signedInAs(app, t.db, "admin@aligner.test", ["admin"]);
  });
  afterAll(async () => {
    await app?.close();
  });

  const userId = async (email: string) => (await t.db.selectFrom("users").select("id").where("email", "=", email).executeTakeFirstOrThrow()).id;
  const datalist = (html: string) => [...(html.match(/<datalist id="roles-staff-emails">([\s\S]*?)<\/datalist>/)?.[1] ?? "").matchAll(/<option value="([^"]+)">([^<]*)<\/option>/g)].map((match) => `${match[1]} ${match[2]}`);

  it("says at the gate how staff sign in with their own address and who grants roles", async () => {
    const stranger = browserFetch(app);
    const gate = await stranger.request("/backoffice/login?redirectTo=%2Fbackoffice%2Ftranslate");
    const text = textOf(await gate.text());
    expect(text).toContain("Как получить доступ");
    expect(text).toContain("Сотрудники входят со своим e-mail, без общего пароля");
    expect(text).toContain("Роли назначает администратор на странице «Роли»");
    expect(rendered(await (await stranger.request("/backoffice/login?redirectTo=%2Fbackoffice%2Ftranslate")).text())).toContain('href="/auth?redirectTo=%2Fbackoffice%2Ftranslate"');
    // Signed in with an address that has no role: told so, with who can grant one.
    const customer = await signedInAs(app, t.db, "doctor@clinic.test");
    const refused = await customer.request("/backoffice");
    expect(refused.status).toBe(302);
    const page = textOf(await follow(customer, refused));
    expect(page).toContain("Вы вошли как doctor@clinic.test, но у этого адреса нет роли сотрудника.");
  });

  it("says on 'Доступ запрещён' in the back office who grants roles", async () => {
    const manager = await signedInAs(app, t.db, "manager@aligner.test", ["manager"]);
    const response = await manager.request("/backoffice/roles");
    expect(response.status).toBe(403);
    const text = textOf(await response.text());
    expect(text).toContain("Доступ запрещён");
    expect(text).toContain("Эта страница открыта только администраторам.");
    expect(text).toContain("Роли назначает администратор на странице «Роли»");
  });

  it("suggests staff and past staff in the role form's address field, never customers", async () => {
    await t.db.insertInto("users").values([{ email: "customer-one@clinic.test" }, { email: "former@aligner.test" }, { email: "newcomer@aligner.test" }]).execute();
    // A former colleague: granted, then removed (their last role, after the question).
    expect((await admin.request("/backoffice/roles", { form: { intent: "assign_email", email: "former@aligner.test", role: "manager" } })).status).toBe(302);
    const question = await admin.request("/backoffice/roles", { form: { intent: "remove", userId: await userId("former@aligner.test"), role: "manager" } });
    expect(question.status).toBe(200);
    expect(textOf(await question.text())).toContain("Это последняя роль former@aligner.test («Менеджер»): без неё этот адрес потеряет доступ к панели управления.");
    expect(await t.db.selectFrom("user_roles").select("role").where("user_id", "=", await userId("former@aligner.test")).execute()).toHaveLength(1);
    const removed = await admin.request("/backoffice/roles", { form: { intent: "remove", userId: await userId("former@aligner.test"), role: "manager", confirm: "yes" } });
    expect(toastOf(await follow(admin, removed))).toEqual(["Роль удалена у пользователя"]);
    expect(await t.db.selectFrom("user_roles").select("role").where("user_id", "=", await userId("former@aligner.test")).execute()).toEqual([]);

    const suggestions = datalist(await (await admin.request("/backoffice/roles")).text());
    expect(suggestions).toContain("admin@aligner.test сотрудник");
    expect(suggestions).toContain("manager@aligner.test сотрудник");
    expect(suggestions).toContain("former@aligner.test бывший сотрудник");
    expect(suggestions.join(" ")).not.toContain("clinic.test");
    expect(suggestions.join(" ")).not.toContain("newcomer@aligner.test");
    // The history names who granted and removed.
    const changes = await t.db.selectFrom("role_changes").select(["change", "actor"]).where("user_id", "=", await userId("former@aligner.test")).orderBy("id").execute();
    expect(changes).toEqual([{ change: "granted", actor: "admin@aligner.test" }, { change: "removed", actor: "admin@aligner.test" }]);
  });

  it("removes one of several roles without asking, and refuses in the reader's language", async () => {
    await signedInAs(app, t.db, "two-roles@aligner.test", ["manager", "user"]);
    const removed = await admin.request("/backoffice/roles", { form: { intent: "remove", userId: await userId("two-roles@aligner.test"), role: "user" } });
    expect(removed.status).toBe(302);
    const english = await signedInAs(app, t.db, "admin@aligner.test");
    expect((await english.request("/language", { form: { lng: "en", redirectTo: "/backoffice/roles" } })).status).toBe(302);
    const refused = await english.request("/backoffice/roles", { form: { intent: "assign_email", email: "nobody@clinic.test", role: "manager" } });
    expect(refused.status).toBe(400);
    expect(textOf(await refused.text())).toContain("No user with this email was found");
  });

  it("shows the whole catalogue of texts, finds by key or text, and marks what is missing and what staff changed", async () => {
    const staff = await gatePassed(app);
    const first = textOf(await (await staff.request("/backoffice/translate/catalogue")).text());
    expect(first).toMatch(/Ключей: \d{4}/);
    expect(first).toContain("Страница 1 из");
    const byKey = await (await staff.request("/backoffice/translate/catalogue?q=bo.roles.title")).text();
    expect(textOf(byKey)).toContain("bo.roles.title");
    expect(textOf(byKey)).toContain("Где используется: /backoffice/roles");
    const byText = textOf(await (await staff.request(`/backoffice/translate/catalogue?q=${encodeURIComponent("Cómo obtener acceso")}`)).text());
    expect(byText).toContain("bo.access.title");
    expect(byText).toContain("Найдено: 1 ·");
    // The form's empty "all texts" choice is no filter: the search still applies.
    expect(textOf(await (await staff.request("/backoffice/translate/catalogue?q=bo.access.title&missing=&overridden=")).text())).toContain("Найдено: 1 ·");

    // A missing text: the Russian plural form "_few" is not needed in English, a removed key would be missing.
    // Override a German text and see it marked, on the catalogue and on the site.
    const saved = await staff.request("/backoffice/translate/catalogue?q=bo.roles.confirmYes", { form: { intent: "override", key: "bo.roles.confirmYes", targetLanguage: "de", translatedText: "Rolle wirklich entfernen", q: "bo.roles.confirmYes" } });
    expect(saved.status).toBe(302);
    expect(saved.headers.get("Location")).toBe("/backoffice/translate/catalogue?q=bo.roles.confirmYes#text-bo.roles.confirmYes");
    const marked = rendered(await follow(staff, saved));
    expect(marked).toMatch(/class="catalogue-cell catalogue-override"[\s\S]*?Rolle wirklich entfernen[\s\S]*?изменён/);
    const onlyChanged = textOf(await (await staff.request("/backoffice/translate/catalogue?overridden=1")).text());
    expect(onlyChanged).toContain("bo.roles.confirmYes");
    expect(onlyChanged).toContain("Найдено: 1 ·");

    // A placeholder lost, an unknown key: refused in place, nothing saved.
    const lost = await staff.request("/backoffice/translate/catalogue", { form: { intent: "override", key: "bo.access.signedInNoRole", targetLanguage: "en", translatedText: "Signed in without a role" } });
    expect(lost.status).toBe(400);
    const unknown = await staff.request("/backoffice/translate/catalogue", { form: { intent: "override", key: "no.such.key", targetLanguage: "en", translatedText: "x" } });
    expect(unknown.status).toBe(400);
    expect(await t.db.selectFrom("translations").select("original_text").execute()).toEqual([{ original_text: "Удалить роль" }]);
  });

  it("keeps the catalogue's page small", async () => {
    const staff = await gatePassed(app);
    const html = await (await staff.request("/backoffice/translate/catalogue?page=2")).text();
    expect(Buffer.byteLength(html)).toBeLessThan(150_000);
  });

  it("shows the base price beside each conditions field and which price wins", async () => {
    const staff = await gatePassed(app);
    await buildOrderIn(t.db, "paid", { email: "prices@clinic.test" });
    const text = textOf(await (await staff.request(`/backoffice/clients?all=1&client=${encodeURIComponent("prices@clinic.test")}`)).text());
    expect(text).toContain("Базовая: 900 ₽ (однослойный), 1 000 ₽ (трёхслойный)");
    expect(text).toContain("Базовая: 1 000 ₽ — за мягкую и жёсткую матрицу.");
    expect(text).toContain("Какая цена действует: цена материала (однослойный, трёхслойный), если задана; иначе общая цена элайнера; иначе базовая.");
  });

  it("opens an order's own page with its card, files, history, payments and tabs; a forged id is a 404", async () => {
    const staff = await gatePassed(app);
    const order = await buildOrderIn(t.db, "paid", { email: "page@clinic.test" });
    await buildPatient(t.db, order.id, "Сидоров Сидор");
    const page = await staff.request(`/backoffice/orders/${order.id}`);
    expect(page.status).toBe(200);
    const html = rendered(await page.text());
    const text = textOf(html);
    expect(text).toContain("Сидоров Сидор");
    expect(text).toContain("Платежи");
    expect(text).toContain("page@clinic.test");
    expect(html).toContain(`href="/backoffice/orders/${order.id}/files?back=${encodeURIComponent(`/backoffice/orders/${order.id}`)}"`);
    expect(html).toContain(`href="/backoffice/orders/${order.id}/tracker?back=`);
    expect(html).toContain(`href="/backoffice/orders/${order.id}/delete?back=`);
    expect(html).toContain(`action="/backoffice/orders/${order.id}/status"`);
    // The children render under the order's header at their old addresses.
    const files = rendered(await (await staff.request(`/backoffice/orders/${order.id}/files`)).text());
    expect(files).toContain("Сидоров Сидор");
    expect(files).toContain('class="tabs bo-order-tabs"');
    // The dashboard's card links to the page.
    expect(rendered(await (await staff.request("/backoffice?status=all")).text())).toContain(`href="/backoffice/orders/${order.id}"`);
    for (const forged of ["00000000-0000-4000-8000-000000000000", "not-an-id", "1%27%20or%201=1"]) {
      for (const part of ["", "/files", "/tracker", "/delete"]) {
        const response = await staff.request(`/backoffice/orders/${forged}${part}`);
        expect(response.status, `${forged}${part}`).toBe(404);
        expect(textOf(await response.text())).toContain("Страница не найдена");
      }
    }
    // Strangers are sent to the gate.
    const stranger = await browserFetch(app).request(`/backoffice/orders/${order.id}`);
    expect(stranger.status).toBe(302);
  });
});

describe("the catalogue with a text missing in German", () => {
  let app: TestApp;
  let locales: string;

  beforeAll(async () => {
    // The locale files with one German text taken out, as a release that forgot it.
    locales = fs.mkdtempSync(path.join(os.tmpdir(), "locales-"));
    fs.cpSync(path.resolve("locales"), locales, { recursive: true });
    const file = path.join(locales, "de", "backoffice.json");
    const texts = JSON.parse(fs.readFileSync(file, "utf8"));
    delete texts.bo.roles.confirmYes;
    fs.writeFileSync(file, JSON.stringify(texts, null, 2));
    app = await startApp({ env: { LOCALES_DIR: locales } });
  });
  afterAll(async () => {
    await app?.close();
    fs.rmSync(locales, { recursive: true, force: true });
  });

  it("highlights it, lists it under 'missing in German', and marks it overridden once a translator fills it", async () => {
    const staff = await gatePassed(app);
    const summary = textOf(await (await staff.request("/backoffice/translate/catalogue")).text());
    expect(summary).toContain("DE 1");
    expect(summary).toContain("EN 0");
    const missing = rendered(await (await staff.request("/backoffice/translate/catalogue?missing=de")).text());
    expect(textOf(missing)).toContain("Найдено: 1 ·");
    expect(missing).toMatch(/id="text-bo.roles.confirmYes"[\s\S]*?class="catalogue-cell catalogue-missing"><dt><abbr title="Deutsch">DE<\/abbr><\/dt><dd><strong class="catalogue-gap">Нет текста<\/strong>/);
    // The translate link opens the form for that key and language.
    expect(missing).toContain('href="/backoffice/translate/catalogue?missing=de&edit=bo.roles.confirmYes&lang=de#catalogue-edit-title"');
    const form = textOf(await (await staff.request("/backoffice/translate/catalogue?missing=de&edit=bo.roles.confirmYes&lang=de")).text());
    expect(form).toContain("bo.roles.confirmYes · Deutsch");
    const saved = await staff.request("/backoffice/translate/catalogue?missing=de", { form: { intent: "override", key: "bo.roles.confirmYes", targetLanguage: "de", translatedText: "Rolle entfernen", missing: "de" } });
    expect(saved.status).toBe(302);
    const after = textOf(await follow(staff, saved));
    expect(after).toContain("Перевод обновлен");
    expect(after).toContain("Найдено: 0 ·");
    expect(after).toContain("DE 0");
    const marked = rendered(await (await staff.request("/backoffice/translate/catalogue?q=bo.roles.confirmYes")).text());
    expect(marked).toMatch(/class="catalogue-cell catalogue-override"><dt><abbr title="Deutsch">DE<\/abbr><\/dt><dd><span lang="de">Rolle entfernen<\/span><span class="badge catalogue-override-mark">изменён<\/span>/);
  });
});
