import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUserSession } from "~/modules/auth/session.server";
import { cookies } from "~/modules/http/request/cookies.server";
import type { TestDatabase } from "../../support/database";
import { browserFetch } from "../../support/app-server";
import { SECRETS, startApp, type TestApp } from "../../support/app";

type Browser = ReturnType<typeof browserFetch>;

/** A binary STL of `triangles` facets. */
function binaryStl(triangles: number): Buffer {
  const bytes = Buffer.alloc(84 + 50 * triangles);
  bytes.writeUInt32LE(triangles, 80);
  return bytes;
}

const cookieValue = (setCookie: string) => setCookie.split(";")[0]!.split("=").slice(1).join("=");

/**
 * The partner journey of issue 5 over HTTP: a partner link, a new clinic orders and pays in the
 * sandbox, the partner sees the referral and the accrued reward, staff add a payout and the amount
 * due drops by it.
 */
describe("partner journey", () => {
  let t: TestDatabase;
  let app: TestApp;

  beforeAll(async () => {
    app = await startApp();
    t = app.database;
  });
  afterAll(async () => {
    await app?.close();
  });

  async function upload(browser: Browser, name: string, intent: string) {
    const form = new FormData();
    form.append("files", new Blob([new Uint8Array(binaryStl(12))]), name);
    form.append("intent", intent);
    const response = await fetch(`${app.url}/order`, { method: "POST", body: form, headers: { Cookie: browser.jar.header(), Origin: app.url }, redirect: "manual" });
    browser.jar.store(response);
    expect(response.status).toBe(302);
  }

  it("pays a partner for the clinic their link brought", async () => {
    // 1. A signed-in user opens the partner cabinet, gets a code and, once named, a link.
    const user = await t.db.insertInto("users").values({ email: "referrer@ortho.ru" }).returning("id").executeTakeFirstOrThrow();
    const partner = browserFetch(app);
    partner.jar.set("__session", cookieValue(await createUserSession(t.db, user.id)));
    expect((await partner.request("/partner")).status).toBe(200);
    expect((await partner.request("/partner", { form: { intent: "create" } })).status).toBe(302);
    expect((await partner.request("/partner", { form: { intent: "name", user_name: "Ортоцентр" } })).status).toBe(302);
    const { code, id: partnerCodeId } = await t.db.selectFrom("partner_codes").select(["code", "id"]).where("user_email", "=", "referrer@ortho.ru").executeTakeFirstOrThrow();
    const link = `${app.url}/${code}`;
    expect(await (await partner.request("/partner")).text()).toContain(`value="${link}"`);

    // 2. A new clinic arrives through the link: the landing keeps the code in the `partner` cookie
    //    (capturing /{code} is the landing's work), then the clinic orders and pays in the sandbox.
    const clinic = browserFetch(app);
    clinic.jar.set("partner", cookieValue(await cookies.partnerCode().serialize(code)));
    const email = "new-clinic@dental.ru";
    expect((await clinic.request("/order", { form: { intent: "next" } })).status).toBe(302);
    expect((await clinic.request("/order", { form: { intent: "next", email, phone: "+7 900 000-00-02" } })).status).toBe(302);
    expect((await clinic.request("/order", { form: { intent: "next", full_name: "Петрова Ольга", address: "Казань, ул. Баумана, 5", consent: "on" } })).status).toBe(302);
    expect((await clinic.request("/order", { form: { intent: "add_patient", patient_name: "Соколов Д." } })).status).toBe(302);
    expect((await clinic.request("/order", { form: { intent: "next" } })).status).toBe(302);
    await upload(clinic, "upper.stl", "next");
    expect((await clinic.request("/order", { form: { intent: "next", matrix_type: "hard" } })).status).toBe(302);
    expect((await clinic.request("/order", { form: { intent: "skip_aligners" } })).status).toBe(302);
    expect((await clinic.request("/order", { form: { intent: "skip_retainers" } })).status).toBe(302);
    const pay = await clinic.request("/order", { form: { intent: "pay" } });
    expect(pay.status).toBe(302);
    const checkout = pay.headers.get("Location")!;
    expect(checkout).toMatch(/^\/payment\/sandbox\/sbx_/);
    const order = await t.db.selectFrom("orders").select(["id", "status", "total_cost", "partner_code_id"]).where("email", "=", email).executeTakeFirstOrThrow();
    expect(order.status).toBe("pending");
    expect(order.partner_code_id).toBe(partnerCodeId);
    // One hard matrix at the base price, raised to the minimum order of 10 000 ₽.
    expect(order.total_cost).toBe(1_000_000);

    const paid = await clinic.request(checkout, { form: { outcome: "pay" } });
    expect(paid.status).toBe(302);
    const success = paid.headers.get("Location")!;
    expect(success).toMatch(/^(https?:\/\/[^/]+)?\/payment\/success\?/);
    expect((await clinic.request(success.replace(/^https?:\/\/[^/]+/, ""))).status).toBe(200);
    expect((await t.db.selectFrom("orders").select("status").where("id", "=", order.id).executeTakeFirstOrThrow()).status).toBe("paid");
    const affiliate = await t.db.selectFrom("partner_affiliates").select(["partner_code_id", "first_order_id"]).where("affiliate_email", "=", email).executeTakeFirstOrThrow();
    expect(affiliate).toEqual({ partner_code_id: partnerCodeId, first_order_id: order.id });

    // 3. The partner sees the referral's order and 10 % of 10 000 ₽ accrued.
    const balance = () => t.db.selectFrom("partner_balance_summary").select(["accrued_total", "paid_total", "due_total"]).where("partner_code_id", "=", partnerCodeId).executeTakeFirstOrThrow();
    expect(await balance()).toEqual({ accrued_total: 100_000, paid_total: 0, due_total: 100_000 });
    const cabinet = await (await partner.request("/partner")).text();
    expect(cabinet).toContain(`<code>${order.id.slice(0, 4).toUpperCase()}</code>`);
    expect(cabinet).toContain("Петрова Ольга");
    expect(cabinet).toContain("Привлечённых клиентов: 1, активных: 1");
    expect(cabinet).toMatch(/Начислено<\/dt><dd>1\s000\s₽/);
    expect(cabinet).toMatch(/К выплате<\/dt><dd>1\s000\s₽/);

    // 4. Staff pay out 600 ₽ for the current quarter; the amount due drops by it.
    const office = browserFetch(app);
    expect((await office.request("/backoffice/login", { form: { password: SECRETS.BACKOFFICE_PASSWORD, redirectTo: "/backoffice/affiliates" } })).status).toBe(302);
    const overview = await (await office.request("/backoffice/affiliates")).text();
    expect(overview).toContain(code);
    expect(overview).toContain("Ортоцентр");
    expect(overview).toContain(email);
    const payout = await office.request("/backoffice/affiliates", { form: { intent: "add_payout", partner_code_id: partnerCodeId, amount: "600", year: "2026", quarter: "4", note: "Перевод на карту" } });
    expect(payout.status).toBe(302);
    expect(await balance()).toEqual({ accrued_total: 100_000, paid_total: 60_000, due_total: 40_000 });
    const after = await (await partner.request("/partner")).text();
    expect(after).toMatch(/Выплачено<\/dt><dd>600\s₽/);
    expect(after).toMatch(/К выплате<\/dt><dd>400\s₽/);
    // The cabinet lists the payout with its quarter and who recorded it (the shared password shows as the back office), and the order's own reward.
    expect(after).toContain("История выплат");
    expect(after).toMatch(/<tr class="payout-row"><td data-label="Дата">[^<]+<\/td><td data-label="Квартал">IV кв\. 2026<\/td><td data-label="Сумма" class="num">600\s₽<\/td><td data-label="Кто внёс">бэк-офис<\/td><\/tr>/);
    expect(after).toMatch(/<td data-label="Вознаграждение" class="num referral-reward">1\s000\s₽<\/td>/);
  });
});
