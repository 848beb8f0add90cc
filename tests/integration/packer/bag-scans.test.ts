import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestDatabase } from "../../support/database";
import { browserFetch } from "../../support/app-server";
import { buildOrderIn } from "../../support/builders";
import { addPatient, patientFiles } from "./fixtures";
import { SECRETS, startApp, type TestApp } from "../../support/app";
import { bagCode } from "~/modules/packer/bag-code";

type Browser = ReturnType<typeof browserFetch>;
const markup = (html: string) => html.slice(0, html.indexOf("</main>"));
const text = (html: string) => html.replace(/<!-- -->/g, "").replace(/<[^>]+>/g, " ").replace(/\s+/g, " ");

/** Every bag scanned before «Упаковано» (ADR 103), over real HTTP: ticks, refusals, two packers, the reason. */
describe("the packer's order page: every bag scanned", () => {
  let t: TestDatabase;
  let app: TestApp;
  let packer: Browser;
  let other: Browser;

  async function post(browser: Browser, orderId: string, form: Record<string, string>) {
    const response = await fetch(`${app.url}/packer/order/${orderId}`, {
      method: "POST",
      body: new URLSearchParams(form),
      headers: { Cookie: browser.jar.header(), Origin: app.url, "Content-Type": "application/x-www-form-urlencoded" },
      redirect: "manual",
    });
    browser.jar.store(response);
    return response;
  }
  const page = async (browser: Browser, orderId: string, query = "") => markup(await (await browser.request(`/packer/order/${orderId}${query}`)).text());
  const scans = (orderId: string) => t.db.selectFrom("bag_scans").select(["code", "actor"]).where("order_id", "=", orderId).orderBy("id").execute();

  /** A paid order of one patient: matrix ВЧ/НЧ, aligners step 01 ВЧ/НЧ, a retainer ВЧ — five bags. */
  async function orderOfFiveBags(fullName: string) {
    const order = await buildOrderIn(t.db, "paid", { fullName, email: "scan@clinic.ru" });
    await addPatient(t.db, order, "Первый П.", 1, patientFiles(order.id, `${order.code}_1`, 1, false));
    return order;
  }

  beforeAll(async () => {
    app = await startApp();
    t = app.database;
    packer = browserFetch(app);
    other = browserFetch(app);
    for (const browser of [packer, other]) {
      const signIn = await browser.request("/packer", { form: { password: SECRETS.PACKER_PASSWORD, redirectTo: "/packer" } });
      expect(signIn.status).toBe(302);
    }
  });
  afterAll(async () => {
    await app?.close();
  });

  it("ticks each scanned bag, the same for a second packer and after a reload; refuses a repeat and another order's bag, ticking nothing", async () => {
    const order = await orderOfFiveBags("Сканирующая клиника");
    const first = await page(packer, order.id);
    expect(first).toContain('<form method="post" action="/packer/order/');
    expect(first).toContain('name="code"');
    expect(text(first)).toContain("Отсканировано 0 из 5");
    expect(first.match(/○ не отсканирован/g)).toHaveLength(5);

    const matrixUpper = bagCode(order.id, { patient: 1, kind: "matrix", jaw: "upper", step: null });
    // The page never shows the codes: they are read off the bags.
    expect(first).not.toContain(matrixUpper.slice(0, 10));
    const alignerLower = bagCode(order.id, { patient: 1, kind: "aligners", jaw: "lower", step: 1 });
    // A scanner types the code and Enter; a person may type the printed groups.
    const accepted = await post(packer, order.id, { intent: "scan", code: matrixUpper });
    expect(accepted.status).toBe(303);
    expect(accepted.headers.get("Location")).toBe(`/packer/order/${order.id}?ok=${matrixUpper}`);
    const after = await page(packer, order.id, `?ok=${matrixUpper}`);
    expect(after).toContain('<p class="pk-scan-ok" role="status" data-scan-result="ok">✓ Принят: Матрица · ВЧ · Первый П.</p>');
    expect((await post(other, order.id, { intent: "scan", code: `${alignerLower.slice(0, 10)} ${alignerLower.slice(10)}` })).status).toBe(303);

    // Both packers see both ticks, and a reload keeps them.
    for (const browser of [packer, other]) {
      const html = await page(browser, order.id);
      expect(text(html)).toContain("Отсканировано 2 из 5");
      expect(html.match(/class="pk-bag pk-bag-scanned"/g)).toHaveLength(2);
    }

    // The same bag again, another order's bag, a code not ours: refused in place (422), nothing ticked.
    const otherOrder = await orderOfFiveBags("Чужая клиника");
    const refusals: Array<[string, string]> = [
      [matrixUpper, "Этот пакет уже отсканирован"],
      [bagCode(otherOrder.id, { patient: 1, kind: "matrix", jaw: "lower", step: null }), "Пакет другого заказа!"],
      [bagCode(order.id, { patient: 2, kind: "matrix", jaw: "lower", step: null }), "Такого пакета нет в этом заказе"],
      [bagCode(order.id, { patient: 1, kind: "aligners", jaw: "upper", step: 2 }), "Такого пакета нет в этом заказе"],
      [`${order.code}/${order.code}_1`, "Это не код нашего пакета"],
      [matrixUpper.slice(0, 18) + ((Number(matrixUpper[18]) + 1) % 10), "Это не код нашего пакета"],
    ];
    for (const [code, message] of refusals) {
      const refused = await post(packer, order.id, { intent: "scan", code });
      expect(refused.status).toBe(422);
      const html = markup(await refused.text());
      expect(html).toMatch(new RegExp(`<p class="pk-scan-refused" role="alert" data-scan-result="refused">✗ ${message.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`));
      expect(text(html)).toContain("Отсканировано 2 из 5");
    }
    expect((await scans(order.id)).map((scan) => scan.code)).toEqual([matrixUpper, alignerLower]);
    expect((await scans(order.id))[0]!.actor).toMatch(/^packer \(/);
    expect(await scans(otherOrder.id)).toEqual([]);
  });

  it("refuses «Упаковано» until every bag is scanned, then accepts it with a reason shown to staff", async () => {
    const order = await orderOfFiveBags("Упаковка с причиной");
    const codes = [
      bagCode(order.id, { patient: 1, kind: "matrix", jaw: "upper", step: null }),
      bagCode(order.id, { patient: 1, kind: "matrix", jaw: "lower", step: null }),
      bagCode(order.id, { patient: 1, kind: "aligners", jaw: "upper", step: 1 }),
    ];
    for (const code of codes) expect((await post(packer, order.id, { intent: "scan", code })).status).toBe(303);

    const refused = await post(packer, order.id, { intent: "pack" });
    expect(refused.status).toBe(422);
    expect(text(markup(await refused.text()))).toContain("Не отсканировано пакетов: 2. Отсканируйте их или укажите причину.");
    expect(await t.db.selectFrom("order_packings").selectAll().where("order_id", "=", order.id).execute()).toEqual([]);
    // The list's button, forged onto an order with bags not scanned, is refused too.
    const listed = await fetch(`${app.url}/packer/packed/${order.id}`, { method: "POST", body: new URLSearchParams({ back: "" }), headers: { Cookie: packer.jar.header(), Origin: app.url, "Content-Type": "application/x-www-form-urlencoded" }, redirect: "manual" });
    packer.jar.store(listed);
    expect(listed.status).toBe(302);
    expect(await (await packer.request("/packer")).text()).toContain("Не отсканировано пакетов: 2");
    expect(await t.db.selectFrom("order_packings").selectAll().where("order_id", "=", order.id).execute()).toEqual([]);

    const packed = await post(packer, order.id, { intent: "pack", reason: "Ретейнер переделывается, пришлём отдельно" });
    expect(packed.status).toBe(302);
    expect(packed.headers.get("Location")).toBe("/packer");
    const [mark] = await t.db.selectFrom("order_packings").selectAll().where("order_id", "=", order.id).execute();
    expect(mark).toMatchObject({ missing_bags: 2, missing_reason: "Ретейнер переделывается, пришлём отдельно", from_status: "paid", to_status: "processing" });
    // A scan after packing changes nothing.
    expect((await post(packer, order.id, { intent: "scan", code: bagCode(order.id, { patient: 1, kind: "retainer", jaw: "upper", step: null }) })).status).toBe(422);

    // Staff read it in the order's history.
    const staff = browserFetch(app);
    await staff.request("/backoffice/login", { form: { password: SECRETS.BACKOFFICE_PASSWORD, redirectTo: "/backoffice" } });
    const card = text(await (await staff.request(`/backoffice/orders/${order.id}`)).text());
    expect(card).toContain("Упаковано · без сканирования пакетов: 2; причина: Ретейнер переделывается, пришлём отдельно");
  });

  it("packs without a reason once every bag is scanned, and the page says so", async () => {
    const order = await orderOfFiveBags("Все пакеты");
    const all = [
      bagCode(order.id, { patient: 1, kind: "matrix", jaw: "upper", step: null }),
      bagCode(order.id, { patient: 1, kind: "matrix", jaw: "lower", step: null }),
      bagCode(order.id, { patient: 1, kind: "aligners", jaw: "upper", step: 1 }),
      bagCode(order.id, { patient: 1, kind: "aligners", jaw: "lower", step: 1 }),
      bagCode(order.id, { patient: 1, kind: "retainer", jaw: "upper", step: null }),
    ];
    for (const code of all) expect((await post(packer, order.id, { intent: "scan", code })).status).toBe(303);
    const html = await page(packer, order.id);
    expect(text(html)).toContain("Отсканировано 5 из 5");
    expect(html).toContain("✓ Все пакеты отсканированы.");
    expect(html).not.toContain('name="reason"');
    expect((await post(packer, order.id, { intent: "pack" })).status).toBe(302);
    const [mark] = await t.db.selectFrom("order_packings").selectAll().where("order_id", "=", order.id).execute();
    expect(mark).toMatchObject({ missing_bags: 0, missing_reason: null });
  });

  it("keeps a refused scan from anyone without the packer's password and from another site", async () => {
    const order = await orderOfFiveBags("Чужой сканер");
    const code = bagCode(order.id, { patient: 1, kind: "matrix", jaw: "upper", step: null });
    const stranger = browserFetch(app);
    const response = await post(stranger, order.id, { intent: "scan", code });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/packer");
    const evil = await fetch(`${app.url}/packer/order/${order.id}`, { method: "POST", body: new URLSearchParams({ intent: "scan", code }), headers: { Cookie: packer.jar.header(), Origin: "https://evil.example" }, redirect: "manual" });
    expect(evil.status).toBe(403);
    expect(await scans(order.id)).toEqual([]);
  });
});
