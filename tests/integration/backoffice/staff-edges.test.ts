import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestDatabase } from "../../support/database";
import { startApp, type TestApp } from "../../support/app";
import { randomUUID } from "node:crypto";
import http from "node:http";
import { sql } from "kysely";
import { markInvoicePaid } from "~/modules/payments/invoices.server";
import { changeOrderStatus, shortOrderNumber } from "~/modules/orders/orders.server";
import { markPacked } from "~/modules/packer/packing.server";
import { buildOrderIn, buildPatient } from "../../support/builders";
import { gatePassed, rendered, signedInAs } from "./support";

/** A page's text as read: no scripts, tags or React's text separators. */
const textOf = (html: string) => rendered(html).replace(/<!-- -->/g, "").replace(/<[^>]+>/g, " ").replace(/\s+/g, " ");

/**
 * Staff's edges (issue 57, item 7): a way out for every way in, a skip link to the order list,
 * bank transfers and superseded card attempts told apart, a question before an unpacked order is
 * shipped, the history's actors in the reader's language, the clinic in the "Клиника" column, and
 * times in the market's zone, said as such.
 */
describe("staff's edges", () => {
  let t: TestDatabase;
  let app: TestApp;

  beforeAll(async () => {
    app = await startApp();
    t = app.database;
  });
  afterAll(async () => {
    await app?.close();
  });

  it("offers «Выйти» to a staff member signed in by e-mail, and it signs them out of the back office", async () => {
    const admin = await signedInAs(app, t.db, "admin-out@aligner.test", ["admin"]);
    const page = await admin.request("/backoffice");
    expect(page.status).toBe(200);
    const html = rendered(await page.text());
    expect(html).toMatch(/<form method="post" action="\/backoffice\/logout"[^>]*><button type="submit" class="link-button">Выйти<\/button><\/form>/);
    const out = await admin.request("/backoffice/logout", { method: "POST", form: {} });
    expect(out.status).toBe(302);
    expect(out.headers.get("Location")).toBe("/backoffice/login");
    expect(admin.jar.has("__session")).toBe(false);
    const after = await admin.request("/backoffice");
    expect(after.status).toBe(302);
    expect(after.headers.get("Location")).toMatch(/^\/backoffice\/login/);
  });

  it("offers «Выйти» to the shared password's holder, and it closes the gate", async () => {
    const gate = await gatePassed(app);
    expect(textOf(await (await gate.request("/backoffice")).text())).toContain("Выйти");
    const out = await gate.request("/backoffice/logout", { method: "POST", form: {} });
    expect(out.headers.get("Location")).toBe("/backoffice/login");
    expect((await gate.request("/backoffice")).status).toBe(302);
  });

  it("opens the dashboard with a skip link to the order list, before anything else one can focus", async () => {
    const gate = await gatePassed(app);
    const html = rendered(await (await gate.request("/backoffice")).text());
    const body = html.slice(html.indexOf("<body"));
    const firstFocusable = body.match(/<(a|button|input|select|textarea|summary)\b[^>]*>/)?.[0] ?? "";
    expect(firstFocusable).toBe('<a class="skip-link" href="#orders-list">');
    expect(body).toContain('<a class="skip-link" href="#orders-list">Перейти к списку заказов</a>');
    expect(body).toMatch(/<div id="orders-list" tabindex="-1"/);
    // Not on other back-office pages, which have no order list.
    expect(rendered(await (await gate.request("/backoffice/clients")).text())).not.toContain('href="#orders-list"');
  });

  /** A bank-transfer invoice for the order's total, as the clinic's request makes it (ADR 072). */
  async function invoiceFor(order: { id: string }, company: string) {
    const { total_cost } = await t.db.selectFrom("orders").select("total_cost").where("id", "=", order.id).executeTakeFirstOrThrow();
    return t.db
      .insertInto("invoices")
      .values({ order_id: order.id, client_company: company, client_inn: "7701234567", supplier: JSON.stringify({}), lines: JSON.stringify([]), total: Number(total_cost), currency: "rub" })
      .returning(["id", "number"])
      .executeTakeFirstOrThrow();
  }

  it("marks an order that waits for a bank transfer, on its card, in the table and on its page", async () => {
    const transfer = await buildOrderIn(t.db, "pending", { fullName: "Получатель Посылки" });
    await buildPatient(t.db, transfer.id);
    const card = await buildOrderIn(t.db, "pending");
    await buildPatient(t.db, card.id);
    const invoice = await invoiceFor(transfer, "ООО «Улыбка»");
    const gate = await gatePassed(app);
    const cards = textOf(await (await gate.request("/backoffice?status=pending")).text());
    const cardOf = (text: string, number: string) => text.slice(text.indexOf(`Заказ ${number}`), text.indexOf(`Заказ ${number}`) + 200);
    expect(cardOf(cards, shortOrderNumber(transfer.id))).toContain(`Ожидает оплаты Оплата по счёту №${invoice.number}`);
    expect(cardOf(cards, shortOrderNumber(card.id))).not.toContain("Оплата по счёту");
    const table = textOf(await (await gate.request(`/backoffice?status=pending&view=table`)).text());
    expect(table).toContain(`Ожидает оплаты Оплата по счёту №${invoice.number}`);
    const page = textOf(await (await gate.request(`/backoffice/orders/${transfer.id}`)).text());
    expect(page).toContain(`Оплата по счёту №${invoice.number}`);
  });

  it("names the clinic in the table's «Клиника» column: the invoice's company, else the account's e-mail — never the parcel's recipient", async () => {
    const invoiced = await buildOrderIn(t.db, "pending", { fullName: "Курьеру Отдать Лично", email: "clinic-a@smile.test" });
    await invoiceFor(invoiced, "ООО «Клиника Альфа»");
    const plain = await buildOrderIn(t.db, "pending", { fullName: "Регистратура Первый Этаж", email: "clinic-b@smile.test" });
    const gate = await gatePassed(app);
    const html = rendered(await (await gate.request(`/backoffice?status=pending&view=table&empty=1`)).text());
    const rowOf = (id: string) => html.split("<tr").find((row) => row.includes(`/backoffice/orders/${id}"`)) ?? "";
    const cells = (row: string) => [...row.matchAll(/<td[^>]*>([\s\S]*?)<\/td>/g)].map((match) => textOf(match[1]!).trim());
    expect(cells(rowOf(invoiced.id))[1]).toBe("ООО «Клиника Альфа»");
    expect(cells(rowOf(plain.id))[1]).toBe("clinic-b@smile.test");
    expect(html).not.toContain("Курьеру Отдать Лично");
    expect(html).not.toContain("Регистратура Первый Этаж");
  });

  it("shows a card attempt left open under a paid invoice as not completed, not as «Ожидает оплаты»", async () => {
    const order = await buildOrderIn(t.db, "pending");
    await t.db
      .insertInto("payments")
      .values({ order_id: order.id, order_code: order.code, provider: "sandbox", amount: 1250000, currency: "rub", status: "pending", idempotence_key: `test-${randomUUID()}`, lines: JSON.stringify([]) })
      .execute();
    const invoice = await invoiceFor(order, "ООО «Дента»");
    const admin = await signedInAs(app, t.db, "admin-pay@aligner.test", ["admin"]);
    const before = textOf(await (await admin.request(`/backoffice/orders/${order.id}`)).text());
    expect(before).toContain("sandbox 12 500 ₽ Ожидает оплаты");
    expect((await markInvoicePaid(t.db, order.id, invoice.id, "admin-pay@aligner.test")).ok).toBe(true);
    const after = textOf(await (await admin.request(`/backoffice/orders/${order.id}`)).text());
    const payments = after.slice(after.indexOf("Платежи"), after.indexOf("Счета на оплату"));
    expect(payments).toContain("Не завершён: заказ оплачен по счёту");
    expect(payments).not.toContain("Ожидает оплаты");
    expect(after).not.toContain(`Оплата по счёту №${invoice.number}`);
  });

  it("asks before an unpacked order is marked shipped, in the shipping form itself (no JavaScript needed)", async () => {
    const unpacked = await buildOrderIn(t.db, "processing");
    await buildPatient(t.db, unpacked.id);
    const packed = await buildOrderIn(t.db, "paid");
    await buildPatient(t.db, packed.id);
    expect((await markPacked(t.db, packed.id, { kind: "staff", label: "packer (10.0.0.7)" }, { missing: 0 })).ok).toBe(true);
    const gate = await gatePassed(app);
    const html = rendered(await (await gate.request("/backoffice?status=processing")).text());
    const shipForm = (id: string) => {
      const card = html.slice(html.indexOf(`id="order-${id}"`));
      const start = card.indexOf('<details class="bo-confirm"><summary class="button button-secondary button-small">Отправлен…</summary>');
      expect(start, "the card's shipping confirmation").toBeGreaterThan(-1);
      return card.slice(start, card.indexOf("</details>", start));
    };
    const question = "Заказ ещё не упакован: упаковщик не отметил «Упаковано». Отметить отправку всё равно?";
    expect(textOf(shipForm(unpacked.id))).toContain(question);
    expect(textOf(shipForm(packed.id))).not.toContain(question);
    expect(shipForm(packed.id)).toContain("Отметить отправку");
  });

  it("says the history's actors in the reader's language: the shared password, a browser without sign-in, the payment", async () => {
    const order = await buildOrderIn(t.db, "draft");
    await buildPatient(t.db, order.id);
    await t.db.updateTable("orders").set({ total_cost: 1250000 }).where("id", "=", order.id).execute();
    await changeOrderStatus(t.db, order.id, "pending", { kind: "customer", label: "anonymous browser" });
    await changeOrderStatus(t.db, order.id, "paid", { kind: "payment", label: "sandbox sbx_77aa" });
    const gate = await gatePassed(app);
    const moved = await gate.request(`/backoffice/orders/${order.id}/status`, { method: "POST", form: { to: "processing", back: "/backoffice" } });
    expect(moved.status).toBe(302);
    const history = (html: string) => {
      const text = textOf(html);
      return text.slice(text.indexOf("История"), text.indexOf("История") + 600);
    };
    const ru = history(await (await gate.request(`/backoffice/orders/${order.id}`)).text());
    expect(ru).toContain("Черновик → Ожидает оплаты · клиент без входа");
    expect(ru).toContain("Ожидает оплаты → Оплачен · тестовая касса, платёж sbx_77aa");
    expect(ru).toMatch(/Оплачен → В работе · общий пароль панели \(.+\)/);
    expect(ru).not.toMatch(/back-office password|anonymous browser|sandbox/);
  });

  /** A GET with a Host of our own (fetch cannot set one): the international market's host. */
  function getWithHost(path: string, host: string, cookie: string): Promise<string> {
    return new Promise((resolve, reject) => {
      const request = http.get({ host: "127.0.0.1", port: app.port, path, headers: { Host: `${host}:${app.port}`, Cookie: cookie } }, (response) => {
        let body = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => (body += chunk));
        response.on("end", () => (response.statusCode === 200 ? resolve(body) : reject(new Error(`${path}: ${response.statusCode}`))));
      });
      request.on("error", reject);
    });
  }

  it("shows the back office's times in the market's zone, said as such: Moscow on the domestic site, Berlin on the international", async () => {
    const order = await buildOrderIn(t.db, "paid");
    await buildPatient(t.db, order.id);
    // 21:30 UTC on 10 March: already the 11th in Moscow (UTC+3), still the 10th in Berlin (UTC+1).
    await sql`update orders set created_at = '2026-03-10T21:30:00Z' where id = ${order.id}`.execute(t.db);
    const number = shortOrderNumber(order.id);
    const gate = await gatePassed(app);
    const card = textOf(await (await gate.request(`/backoffice?q=${number}&status=all`)).text());
    expect(card).toContain(`Заказ ${number} Оплачен 11.03.2026, 00:30 МСК`);
    const page = textOf(await (await gate.request(`/backoffice/orders/${order.id}`)).text());
    expect(page).toContain("11.03.2026, 00:30 МСК");
    const table = rendered(await (await gate.request(`/backoffice?q=${number}&status=all&view=table`)).text());
    expect(table).toMatch(new RegExp(`/backoffice/orders/${order.id}"[^>]*>${number}</a></th><td>11\\.03\\.2026</td>`));

    const international = await getWithHost(`/backoffice?q=${number}&status=all`, "aligners.com", gate.jar.header());
    const language = international.match(/<html lang="([^"]+)"/)?.[1] ?? "";
    const berlin = new Intl.DateTimeFormat(language === "ru" ? "ru-RU" : language, { dateStyle: "short", timeStyle: "short", timeZone: "Europe/Berlin" }).format(new Date("2026-03-10T21:30:00Z"));
    const zone = { ru: "по Берлину", en: "Berlin time", de: "Berliner Zeit" }[language as "ru" | "en" | "de"];
    expect(zone, `a zone's name in ${language}`).toBeDefined();
    expect(textOf(international)).toContain(`${berlin} ${zone}`);
    expect(berlin).toMatch(/22:30|10:30/);
  });
});
