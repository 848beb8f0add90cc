import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "kysely";
import type { FileInfo } from "~db/schema";
import type { TestDatabase } from "../../support/database";
import { browserFetch } from "../../support/app-server";
import { buildOrder, buildOrderIn, buildPatient } from "../../support/builders";
import { follow, gatePassed, rendered, signedInAs, toastOf, type Browser } from "./support";
import { startApp, type TestApp } from "../../support/app";

/** The clients screen and the personal conditions form over HTTP (staff side §2, §5; DESIGN §4.10). */
describe("back-office clients and personal conditions", () => {
  let t: TestDatabase;
  let app: TestApp;
  let staff: Browser;

  beforeAll(async () => {
    app = await startApp();
    t = app.database;
    staff = await gatePassed(app);
  });
  afterAll(async () => {
    await app?.close();
  });

  const rowsOf = (html: string) => [...html.matchAll(/<span class="bo-email">([^<]+)<\/span>/g)].map((match) => match[1]);

  it("groups clients by e-mail, shows only clients with payments by default, and sums the last 30 days of payments", async () => {
    await buildOrderIn(t.db, "paid", { email: "paid@clinic.test", fullName: "Орлова Мария" });
    const older = await buildOrderIn(t.db, "completed", { email: "paid@clinic.test", fullName: "Орлова Мария" });
    await t.db.updateTable("orders").set({ paid_at: sql`now() - interval '40 days'` }).where("id", "=", older.id).execute();
    await buildOrder(t.db, { email: "drafts-only@clinic.test", fullName: "Черновиков Павел" });
    await buildOrderIn(t.db, "cancelled", { email: "cancelled@clinic.test" });

    const paidOnly = rendered(await (await staff.request("/backoffice/clients")).text());
    expect(rowsOf(paidOnly)).toEqual(["paid@clinic.test"]);
    // 12 500 ₽ paid within 30 days; the completed order was paid 40 days ago.
    expect(paidOnly).toMatch(/12\s500\s₽/);
    expect(paidOnly).toContain("Есть оплаты");

    const all = rendered(await (await staff.request("/backoffice/clients?all=1")).text());
    expect(rowsOf(all).sort()).toEqual(["cancelled@clinic.test", "drafts-only@clinic.test", "paid@clinic.test"]);
  });

  it("searches e-mail or name case-insensitively, across all clients, with the toggle disabled", async () => {
    const byName = rendered(await (await staff.request(`/backoffice/clients?q=${encodeURIComponent("черновиков")}`)).text());
    expect(rowsOf(byName)).toEqual(["drafts-only@clinic.test"]);
    expect(byName).toMatch(/<input type="checkbox" name="all"[^>]*disabled=""/);
    const byEmail = rendered(await (await staff.request("/backoffice/clients?q=PAID%40")).text());
    expect(rowsOf(byEmail)).toEqual(["paid@clinic.test"]);
    const literal = rendered(await (await staff.request("/backoffice/clients?q=%25")).text());
    expect(rowsOf(literal)).toEqual([]);
    expect(literal).toContain("Нет клиентов по запросу «%»");
  });

  it("opens the conditions form without JavaScript, refuses bad numbers with 400, and saves empty and zero as null", async () => {
    const dialog = rendered(await (await staff.request("/backoffice/clients?all=1&client=paid%40clinic.test")).text());
    expect(dialog).toContain("<dialog open");
    expect(dialog).toContain("Персональные условия");

    const bad = await staff.request("/backoffice/clients?all=1&client=paid%40clinic.test", {
      form: { email: "paid@clinic.test", currency: "rub", alignerPrice: "-5", discountPercentage: "150", matrixPrice: "abc" },
    });
    expect(bad.status).toBe(400);
    const badPage = rendered(await bad.text());
    expect(badPage).toContain("Значение не может быть меньше 0");
    expect(badPage).toContain("Скидка не может быть больше 100");
    expect(badPage).toContain("Введите число");
    expect(await t.db.selectFrom("client_settings").selectAll().where("email", "=", "paid@clinic.test").executeTakeFirst()).toBeUndefined();

    const saved = await staff.request("/backoffice/clients?all=1&client=paid%40clinic.test", {
      form: {
        email: "paid@clinic.test",
        currency: "rub",
        alignerPrice: "0",
        alignerSingleLayerPrice: "700",
        alignerThreeLayerPrice: "",
        matrixPrice: "850.5",
        retainerStandardPrice: "",
        retainerPremiumPrice: "",
        discountPercentage: "10",
        personalComment: "  ",
      },
    });
    expect(saved.status).toBe(302);
    expect(saved.headers.get("Location")).toBe("/backoffice/clients?all=1");
    expect(toastOf(await follow(staff, saved))).toEqual(["Условия для клиента сохранены"]);
    const row = await t.db.selectFrom("client_settings").selectAll().where("email", "=", "paid@clinic.test").executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      currency: "rub",
      aligner_price: null,
      aligner_single_layer_price: 70_000,
      aligner_three_layer_price: null,
      matrix_price: 85_050,
      retainer_standard_price: null,
      discount_percentage: "10.00",
      personal_comment: null,
      notification_channel: "email",
    });
  });

  it("fills the layer prices from the general aligner price when the form opens", async () => {
    await t.db.insertInto("client_settings").values({ email: "drafts-only@clinic.test", aligner_price: 80_000, discount_percentage: "7.5", notification_channel: "whatsapp" }).execute();
    const html = rendered(await (await staff.request("/backoffice/clients?client=drafts-only%40clinic.test")).text());
    expect(html).toMatch(/name="alignerSingleLayerPrice"[^>]*value="800"/);
    expect(html).toMatch(/name="alignerThreeLayerPrice"[^>]*value="800"/);
    expect(html).toMatch(/name="discountPercentage"[^>]*value="7.5"/);
  });

  it("changes that client's next order total", async () => {
    const email = "next-price@clinic.test";
    const doctor = await signedInAs(app, t.db, email);
    const order = await buildOrder(t.db, { email });
    const patient = await buildPatient(t.db, order.id, "Смирнова Е.");
    const aligners: FileInfo[] = Array.from({ length: 20 }, (_, index) => {
      const storagePath = `order_${order.id}/${patient.folder_name}/aligners/step${index}_1.stl`;
      return { originalName: `step${index}.stl`, storagePath, url: `/files/orders/${storagePath}`, type: "model/stl", size: 184 };
    });
    await t.db.updateTable("orders_patients").set({ aligner_files_info: JSON.stringify(aligners), material_type: "single_layer", skip_matrix: true, skip_retainers: true }).where("id", "=", patient.id).execute();
    await t.db.updateTable("orders").set({ wizard_step: 11 }).where("id", "=", order.id).execute();
    const total = async (browser: Browser) => {
      expect((await browser.request(`/order?id=${order.id}`)).status).toBe(200);
      return Number((await t.db.selectFrom("orders").select("total_cost").where("id", "=", order.id).executeTakeFirstOrThrow()).total_cost);
    };

    // Base: 20 × 900 ₽ = 18 000; new customer 3 % = 540; + 1 500 delivery = 18 960 ₽.
    expect(await total(doctor)).toBe(1_896_000);
    const saved = await staff.request(`/backoffice/clients?client=${encodeURIComponent(email)}`, {
      form: { email, currency: "rub", alignerSingleLayerPrice: "700", discountPercentage: "10" },
    });
    expect(saved.status).toBe(302);
    // Personal: 20 × 700 ₽ = 14 000; 10 % + 3 % = 1 820; + 1 500 = 13 680 ₽.
    expect(await total(doctor)).toBe(1_368_000);
    // Conditions in another currency do not apply to a rouble order.
    await staff.request(`/backoffice/clients?client=${encodeURIComponent(email)}`, { form: { email, currency: "eur", alignerSingleLayerPrice: "7" } });
    expect(await total(doctor)).toBe(1_896_000);
  });

  it("keeps two comments: the one the client sees on the summary, labelled so, and an internal one the client never sees", async () => {
    const email = "two-comments@clinic.test";
    const form = rendered(await (await staff.request(`/backoffice/clients?client=${encodeURIComponent(email)}`)).text());
    expect(form).toContain("Персональный комментарий (виден клиенту)");
    expect(form).toContain("Виден клиенту в итоге заказа.");
    expect(form).toContain("Внутренний комментарий");
    expect(form).toContain("Только для сотрудников: клиенту не показывается.");
    const saved = await staff.request(`/backoffice/clients?client=${encodeURIComponent(email)}`, {
      form: { email, currency: "rub", personalComment: "Доставка курьером клиники", internalComment: "Просил скидку, отказали" },
    });
    expect(saved.status).toBe(302);
    const row = await t.db.selectFrom("client_settings").selectAll().where("email", "=", email).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ personal_comment: "Доставка курьером клиники", internal_comment: "Просил скидку, отказали" });
    const reopened = rendered(await (await staff.request(`/backoffice/clients?client=${encodeURIComponent(email)}`)).text());
    expect(reopened).toContain("Просил скидку, отказали");

    const doctor = await signedInAs(app, t.db, email);
    const order = await buildOrder(t.db, { email });
    const patient = await buildPatient(t.db, order.id, "Смирнова Е.");
    await t.db.updateTable("orders_patients").set({ skip_matrix: true, skip_retainers: true, skip_aligners: true }).where("id", "=", patient.id).execute();
    await t.db.updateTable("orders").set({ wizard_step: 11 }).where("id", "=", order.id).execute();
    const summary = await (await doctor.request(`/order?id=${order.id}`)).text();
    expect(summary).toContain("Доставка курьером клиники");
    expect(summary).not.toContain("Просил скидку");
    const stored = await t.db.selectFrom("orders").select("additional_comments").where("id", "=", order.id).executeTakeFirstOrThrow();
    expect(stored.additional_comments ?? "").not.toContain("Просил скидку");
  });

  it("asks before saving a price far outside the usual range, and saves it on a second submit that confirms it (no JavaScript)", async () => {
    const email = "typo-price@clinic.test";
    const url = `/backoffice/clients?client=${encodeURIComponent(email)}`;
    // 9 000 ₽ for a single-layer aligner (base 900 ₽: an extra zero) and 50 ₽ for a matrix (base 1 000 ₽).
    const typed = { email, currency: "rub", alignerSingleLayerPrice: "9001", matrixPrice: "50", retainerStandardPrice: "800" };
    const asked = await staff.request(url, { form: typed });
    expect(asked.status).toBe(409);
    const html = rendered(await asked.text());
    expect(html).toContain("Цена отличается от базовой больше чем в 10 раз:");
    expect(html).toContain("Проверьте значения. Если они верны, нажмите «Сохранить» ещё раз.");
    const fingerprint = /name="confirmUnusual" value="([^"]+)"/.exec(html)?.[1];
    expect(fingerprint).toBe("alignerSingleLayerPrice=900100;matrixPrice=5000");
    // What was typed stays in the form; nothing is saved yet.
    expect(html).toMatch(/name="alignerSingleLayerPrice"[^>]*value="9001"/);
    expect(await t.db.selectFrom("client_settings").selectAll().where("email", "=", email).executeTakeFirst()).toBeUndefined();

    // A confirmation of other values does not save changed ones.
    const changed = await staff.request(url, { form: { ...typed, matrixPrice: "40", confirmUnusual: fingerprint! } });
    expect(changed.status).toBe(409);
    expect(await t.db.selectFrom("client_settings").selectAll().where("email", "=", email).executeTakeFirst()).toBeUndefined();

    const saved = await staff.request(url, { form: { ...typed, confirmUnusual: fingerprint! } });
    expect(saved.status).toBe(302);
    const row = await t.db.selectFrom("client_settings").selectAll().where("email", "=", email).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ aligner_single_layer_price: 900_100, matrix_price: 5_000, retainer_standard_price: 80_000 });

    // Prices within the range save at once: 10× the base is still usual.
    const usual = await staff.request(url, { form: { email, currency: "rub", alignerSingleLayerPrice: "9000", matrixPrice: "100" } });
    expect(usual.status).toBe(302);
  });

  it("keeps the page and the form behind the gate", async () => {
    const stranger = browserFetch(app);
    const page = await stranger.request("/backoffice/clients");
    expect(page.status).toBe(302);
    const post = await stranger.request("/backoffice/clients", { form: { email: "paid@clinic.test", currency: "rub", discountPercentage: "99" } });
    expect(post.status).toBe(302);
    expect(post.headers.get("Location")).toContain("/backoffice/login");
    const row = await t.db.selectFrom("client_settings").select("discount_percentage").where("email", "=", "paid@clinic.test").executeTakeFirstOrThrow();
    expect(row.discount_percentage).toBe("10.00");
  });
});
