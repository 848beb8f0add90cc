import fs from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFileServer } from "~/modules/ftp/file-server.server";
import { processQueue, type QueueDeps } from "~/modules/ftp/transfer.server";
import type { MailMessage } from "~/modules/mail/types";
import { anonymiseOrderRows } from "~/modules/orders/retention.server";
import { sendStatusMails } from "~/modules/notifications/status-mail.server";
import { appendFiles } from "~/modules/orders/files.server";
import { changeOrderStatus, longOrderNumber } from "~/modules/orders/orders.server";
import { createStorage } from "~/modules/storage/storage.server";
import { storageKey } from "~/modules/uploads/file-names";
import type { Order } from "~db/schema";
import { type TestApp, startApp } from "../../support/app";
import { browserFetch } from "../../support/app-server";
import { buildOrder, buildOrderIn, buildPatient, customer, staff } from "../../support/builders";
import { INVOICE_SUPPLIER } from "../../support/company";
import { freePort } from "../../support/free-port";
import { parseExposition, sumOf } from "../../support/prometheus";
import { follow, gatePassed, rendered, signedInAs, toastOf } from "../backoffice/support";

/**
 * A bank-transfer invoice of the domestic market (ADR 072), over HTTP against the real app: the clinic
 * asks for one on its priced, unpaid order (a wrong ИНН refused in place, nothing made), prints it
 * (the configured requisites, the card payment's lines, the total), nobody else opens it; staff mark
 * it paid after a question, and the order then goes the way of a card payment — paid, its files to the
 * file server, the paid mail — once: a second press or a forged id changes nothing and says so.
 */

const TOTAL = 1_250_000;
const LINES = [
  { description: "Элайнеры однослойные — Орлова Анна", quantity: 2, price: 500_000 },
  { description: "Упаковка и доставка", quantity: 1, price: 250_000 },
];
/** Money as the invoice writes it in Russian: "12 500,00" with its no-break group separator. */
/** What the page shows as text: no scripts, tags or React's text separators. */
const textOf = (html: string) => rendered(html).replace(/<!-- -->/g, "").replace(/<[^>]+>/g, " ").replace(/ {2,}/g, " ");
const rub = (minor: number) => new RegExp((minor / 100).toLocaleString("ru-RU", { minimumFractionDigits: 2 }).replace(/\s/g, "\\s"));

let metricsPort = 0;

/** Transfers recorded against invoices so far, by outcome, as the app's metrics port exports them (ADR 073). */
async function invoicePayments(outcome: string): Promise<number> {
  const response = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
  return sumOf(parseExposition(await response.text()), "aligner_payments_total", { provider: "invoice", outcome });
}

describe("a bank-transfer invoice", () => {
  let app: TestApp;
  const email = `invoice-${Date.now()}@clinic.ru`;
  let order: Order;
  let deps: QueueDeps;
  const ftpDir = () => path.join(app.dataDir, "ftp-invoice");
  const settings = { leaseSeconds: 30, maxAttempts: 3, concurrency: 2 };

  beforeAll(async () => {
    metricsPort = await freePort();
    app = await startApp({ env: { ...INVOICE_SUPPLIER, METRICS_PORT: String(metricsPort) } });
    const db = app.database.db;
    const storage = createStorage({ storage: { kind: "folder", dir: path.join(app.dataDir, "storage") }, buckets: { orders: "orders", logos: "logos" } });
    await storage.ensureBuckets();
    deps = { db, storage, fileServer: createFileServer({ fileServer: { kind: "folder", dir: ftpDir(), root: "/AlignersFactory" } }), log: () => undefined };
    // A priced order with a model waiting in the file-server queue, and the card payment's lines of its first attempt.
    order = await buildOrder(db, { email, fullName: "Орлова Анна Петровна" });
    const patient = await buildPatient(db, order.id, "Орлова Анна");
    const key = storageKey(order.id, patient.folder_name, "aligners", "orlova-upper.stl");
    await storage.put("orders", key, Readable.from([Buffer.from("solid orlova")]), { contentLength: 12 });
    await appendFiles(db, order, patient, "aligners", [{ originalName: "Орлова верх.stl", key, size: 12, triangles: 0 }]);
    await db.updateTable("orders").set({ total_cost: TOTAL }).where("id", "=", order.id).execute();
    order = (await changeOrderStatus(db, order.id, "pending", customer)).order;
    await db
      .insertInto("payments")
      .values({ order_id: order.id, order_code: order.code, provider: "sandbox", amount: TOTAL, currency: "rub", status: "canceled", idempotence_key: `invoice-test-${order.id}`, lines: JSON.stringify(LINES) })
      .execute();
  });
  afterAll(async () => {
    await app?.close();
  });

  const invoices = () => app.database.db.selectFrom("invoices").selectAll().where("order_id", "=", order.id).orderBy("created_at").execute();
  const orderPath = () => `/cabinet/orders/${order.id}`;

  it("offers the form on the priced, unpaid order, and refuses a wrong company or ИНН in place with what was typed, making nothing", async () => {
    const clinic = await signedInAs(app, app.database.db, email);
    const page = rendered(await (await clinic.request(orderPath())).text());
    expect(page).toContain("Оплата по счёту");
    expect(page).toContain("Получить счёт");

    for (const [form, message] of [
      [{ company: "ООО «Улыбка»", inn: "7707083894" }, "В ИНН ошибка: проверьте цифры"],
      [{ company: "ООО «Улыбка»", inn: "77070" }, "ИНН — это 10 цифр у организации или 12 у ИП"],
      [{ company: "ООО «Улыбка»", inn: "" }, "Укажите ИНН"],
      [{ company: "  ", inn: "7707083893" }, "Укажите название компании"],
    ] as const) {
      const refused = await clinic.request(orderPath(), { form: { intent: "invoice", ...form } });
      expect(refused.status, message).toBe(400);
      const html = rendered(await refused.text());
      expect(html).toContain(message);
      if (form.company.trim()) expect(html).toContain(`value="${form.company}"`);
      expect(html).toContain(`value="${form.inn}"`);
    }
    expect(await invoices()).toEqual([]);
  });

  it("makes the invoice and opens it to print: the configured requisites, the buyer, the card payment's lines and the total; asking again for the same company finds it", async () => {
    const clinic = await signedInAs(app, app.database.db, email);
    const made = await clinic.request(orderPath(), { form: { intent: "invoice", company: "ООО  «Улыбка»", inn: "7707 083-893" } });
    expect(made.status).toBe(302);
    const [invoice] = await invoices();
    expect(invoice).toMatchObject({ client_company: "ООО «Улыбка»", client_inn: "7707083893", total: TOTAL, currency: "rub", paid_at: null, lines: LINES });
    expect(made.headers.get("Location")).toBe(`${orderPath()}/invoices/${invoice!.id}`);

    const html = await follow(clinic, made);
    expect(toastOf(html)).toEqual(["Счёт сформирован"]);
    const text = textOf(html);
    const date = new Intl.DateTimeFormat("ru-RU", { timeZone: "Europe/Moscow", day: "2-digit", month: "2-digit", year: "numeric" }).format(invoice!.created_at);
    expect(text).toContain(`Счёт на оплату № ${invoice!.number} от ${date}`);
    for (const requisite of [INVOICE_SUPPLIER.INVOICE_SUPPLIER_NAME, INVOICE_SUPPLIER.INVOICE_BANK_NAME, INVOICE_SUPPLIER.INVOICE_BANK_BIK, INVOICE_SUPPLIER.INVOICE_BANK_ACCOUNT, INVOICE_SUPPLIER.INVOICE_BANK_CORR_ACCOUNT, INVOICE_SUPPLIER.INVOICE_SUPPLIER_ADDRESS]) {
      expect(text, requisite).toContain(requisite);
    }
    expect(text).toContain(`${INVOICE_SUPPLIER.INVOICE_SUPPLIER_INN} / ${INVOICE_SUPPLIER.INVOICE_SUPPLIER_KPP}`);
    expect(text).toContain("ООО «Улыбка», ИНН 7707083893");
    for (const line of LINES) expect(text).toContain(line.description);
    expect(text).toMatch(rub(500_000));
    expect(text).toMatch(rub(1_000_000));
    expect(text).toMatch(rub(TOTAL));
    expect(text).toContain("Без НДС");
    expect(text).toContain(`Назначение платежа: оплата заказа № ${longOrderNumber(order.id)} по счёту № ${invoice!.number} от ${date}. Без НДС`);
    expect(text).toMatch(/Всего наименований: 2, на сумму 12\s500,00 ₽/);
    // The total in words, as the bank reads it (12 500,00 ₽).
    expect(text).toContain("Двенадцать тысяч пятьсот рублей 00 копеек");
    expect(text).not.toContain("демонстрационные");
    // Ready to print without JavaScript: the page says how, the print button comes with JavaScript.
    expect(text).toContain("Чтобы распечатать счёт, нажмите Ctrl+P");

    const again = await clinic.request(orderPath(), { form: { intent: "invoice", company: "ООО «Улыбка»", inn: "7707083893" } });
    expect(again.headers.get("Location")).toBe(`${orderPath()}/invoices/${invoice!.id}`);
    expect(toastOf(await follow(clinic, again))).toEqual(["Счёт на эту компанию уже есть — вот он"]);
    expect(await invoices()).toHaveLength(1);
    const list = textOf(await (await clinic.request(orderPath())).text());
    expect(list).toContain(`Счёт № ${invoice!.number} от ${date}`);
    // Beside the card payment, on the order's page and the payment page: the transfer may be on its way.
    const twice = `По этому заказу выставлен счёт № ${invoice!.number} от ${date} для оплаты переводом. Если он уже оплачен, не платите картой`;
    expect(list).toContain(twice);
    const payPage = textOf(await (await clinic.request(`/pay/${order.id}`)).text());
    expect(payPage).toContain(twice);
    expect(payPage).toContain("Перейти к оплате");
  });

  it("is 404 for another clinic, for another order's or a forged invoice id, and for a signed-out visitor it asks to sign in", async () => {
    const [invoice] = await invoices();
    const url = `${orderPath()}/invoices/${invoice!.id}`;
    const other = await signedInAs(app, app.database.db, `other-${Date.now()}@clinic.ru`);
    expect((await other.request(url)).status).toBe(404);
    expect((await other.request(orderPath(), { form: { intent: "invoice", company: "ООО «Чужая»", inn: "7707083893" } })).status).toBe(404);
    const clinic = await signedInAs(app, app.database.db, email);
    const otherOrder = await buildOrderIn(app.database.db, "pending", { email });
    expect((await clinic.request(`/cabinet/orders/${otherOrder.id}/invoices/${invoice!.id}`)).status).toBe(404);
    expect((await clinic.request(`${orderPath()}/invoices/00000000-0000-4000-8000-000000000000`)).status).toBe(404);
    expect((await clinic.request(`${orderPath()}/invoices/not-an-id`)).status).toBe(404);
    const anonymous = await browserFetch(app).request(url);
    expect(anonymous.headers.get("Location")).toBe(`/auth?redirectTo=${encodeURIComponent(url)}`);
    expect(await invoices()).toHaveLength(1);
  });

  it("refuses anyone but staff the back office's invoice and its payment, changing nothing", async () => {
    const [invoice] = await invoices();
    const clinic = await signedInAs(app, app.database.db, email);
    for (const browser of [clinic, browserFetch(app)]) {
      const marked = await browser.request(`/backoffice/orders/${order.id}?index`, { form: { intent: "invoice_paid", invoiceId: invoice!.id } });
      expect(marked.headers.get("Location")).toMatch(/^\/backoffice\/login\?redirectTo=/);
      expect((await browser.request(`/backoffice/orders/${order.id}/invoices/${invoice!.id}`)).headers.get("Location")).toMatch(/^\/backoffice\/login\?redirectTo=/);
    }
    expect((await invoices())[0]).toMatchObject({ paid_at: null, paid_by: null });
    expect((await app.database.db.selectFrom("orders").select("status").where("id", "=", order.id).executeTakeFirstOrThrow()).status).toBe("pending");
  });

  it("does not let the shared back-office password record a transfer: no control, the reason said, and its post refused with 403", async () => {
    const [invoice] = await invoices();
    const office = await gatePassed(app);
    const page = await (await office.request(`/backoffice/orders/${order.id}`)).text();
    expect(textOf(page)).toContain("Оплату по счёту отмечает сотрудник, вошедший со своим e-mail");
    expect(page).not.toContain(`?invoice=${invoice!.id}`);
    // Not even asked: the question is for those who may answer it.
    expect(textOf(await (await office.request(`/backoffice/orders/${order.id}?invoice=${invoice!.id}`)).text())).not.toContain("Да, перевод поступил");
    const marked = await office.request(`/backoffice/orders/${order.id}?index`, { form: { intent: "invoice_paid", invoiceId: invoice!.id } });
    expect(marked.status).toBe(403);
    expect(textOf(await marked.text())).toContain("общий пароль его не открывает");
    expect((await invoices())[0]).toMatchObject({ paid_at: null, paid_by: null, payment_id: null });
    expect((await app.database.db.selectFrom("orders").select("status").where("id", "=", order.id).executeTakeFirstOrThrow()).status).toBe("pending");
    expect(await app.database.db.selectFrom("payments").select("id").where("order_id", "=", order.id).where("provider", "=", "invoice").execute()).toEqual([]);
  });

  it("staff mark it paid after a question: the order becomes paid as after a card, its file goes to the file server and the paid mail goes", async () => {
    const db = app.database.db;
    const [invoice] = await invoices();
    const manager = await signedInAs(app, db, "manager@lab.ru", ["manager"]);
    const page = textOf(await (await manager.request(`/backoffice/orders/${order.id}`)).text());
    expect(page).toContain("Счета на оплату");
    expect(page).toContain(`№ ${invoice!.number}`);
    expect(page).toContain("ООО «Улыбка»");
    expect(page).toContain("7707083893");
    expect(page).toContain("Отметить оплату по счёту");
    const question = textOf(await (await manager.request(`/backoffice/orders/${order.id}?invoice=${invoice!.id}`)).text());
    expect(question).toContain(`Отметить оплату по счёту № ${invoice!.number}?`);
    expect(question).toMatch(/Перевод 12\s500\s₽ от ООО «Улыбка» \(ИНН 7707083893\) поступил на счёт лаборатории\?/);
    expect(question).toContain("Да, перевод поступил");
    const staffInvoice = textOf(await (await manager.request(`/backoffice/orders/${order.id}/invoices/${invoice!.id}`)).text());
    expect(staffInvoice).toContain(`Счёт на оплату № ${invoice!.number}`);

    // Not yet paid: the order's file waits in the queue.
    expect(await processQueue(deps, settings)).toMatchObject({ claimed: 0 });

    const paidCounted = await invoicePayments("paid");
    const marked = await manager.request(`/backoffice/orders/${order.id}?index`, { form: { intent: "invoice_paid", invoiceId: invoice!.id } });
    expect(marked.headers.get("Location")).toBe(`/backoffice/orders/${order.id}`);
    // Counted with the card payments, for the payments' metrics and alert (ADR 073).
    expect(await invoicePayments("paid")).toBe(paidCounted + 1);
    expect(toastOf(await follow(manager, marked))).toEqual(["Оплата по счёту отмечена", `Счёт № ${invoice!.number} оплачен, заказ оплачен: файлы уходят на файловый сервер.`]);

    const paid = await db.selectFrom("orders").select(["status", "paid_at"]).where("id", "=", order.id).executeTakeFirstOrThrow();
    expect(paid.status).toBe("paid");
    expect(paid.paid_at).toBeInstanceOf(Date);
    const [after] = await invoices();
    expect(after).toMatchObject({ paid_by: "manager@lab.ru" });
    expect(after!.paid_at).toBeInstanceOf(Date);
    const payment = await db.selectFrom("payments").selectAll().where("order_id", "=", order.id).where("status", "=", "succeeded").executeTakeFirstOrThrow();
    expect(payment).toMatchObject({ provider: "invoice", amount: TOTAL, currency: "rub", customer_business_name: "ООО «Улыбка»", invoice_id: String(invoice!.number), lines: LINES });
    expect(after!.payment_id).toBe(payment.id);
    const history = await db.selectFrom("order_status_history").select(["from_status", "to_status", "actor"]).where("order_id", "=", order.id).where("to_status", "=", "paid").execute();
    expect(history).toEqual([{ from_status: "pending", to_status: "paid", actor: `invoice №${invoice!.number} (manager@lab.ru)` }]);

    // The file server gets the order's file, as after a card payment.
    expect(await processQueue(deps, settings)).toMatchObject({ claimed: 1, completed: 1 });
    const entry = await db.selectFrom("ftp_uploads_queue").select(["status", "destination_path"]).where("order_id", "=", order.id).executeTakeFirstOrThrow();
    expect(entry.status).toBe("completed");
    const delivered = fs.readdirSync(ftpDir(), { recursive: true }) as string[];
    expect(delivered.some((name) => name.endsWith("orlova-upper.stl"))).toBe(true);

    // The paid mail goes, with the amount paid.
    const sent: MailMessage[] = [];
    await sendStatusMails(db, { mailer: { kind: "outbox", send: async (message) => (sent.push(message), { id: String(sent.length) }) }, publicUrl: app.url, limit: 1000 });
    const mail = sent.find((message) => message.to === email);
    expect(mail?.subject).toContain("Оплачен");
    expect(mail?.text).toMatch(/Оплачено: 12\s500\s₽/);

    // Staff see who recorded it and when; the clinic sees the transfer among its payments, and no more form.
    const recorded = textOf(await (await manager.request(`/backoffice/orders/${order.id}`)).text());
    expect(recorded).toMatch(/Оплата отмечена \d\d\.\d\d\.\d{4}, \d\d:\d\d: manager@lab\.ru/);
    expect(recorded).not.toContain("Отметить оплату по счёту");
    expect(recorded).toContain("Счёт (перевод)");
    const clinic = await signedInAs(app, db, email);
    const cabinet = textOf(await (await clinic.request(orderPath())).text());
    expect(cabinet).toContain(`Перевод по счёту № ${invoice!.number}`);
    expect(cabinet).toMatch(/Оплачено: 12\s500\s₽/);
    expect(cabinet).not.toContain("Получить счёт");
    expect(cabinet).not.toContain("По этому заказу выставлен счёт");
    expect(textOf(await (await clinic.request(`${orderPath()}/invoices/${invoice!.id}`)).text())).toMatch(/Оплачен \d\d\.\d\d\.\d{4}/);
  });

  it("changes nothing on a second press, another order's or a forged invoice id, or a changed order, and says so", async () => {
    const db = app.database.db;
    const [invoice] = await invoices();
    const manager = await signedInAs(app, db, "manager@lab.ru", ["manager"]);
    const mark = (orderId: string, invoiceId: string) => manager.request(`/backoffice/orders/${orderId}?index`, { form: { intent: "invoice_paid", invoiceId } });
    const before = await db.selectFrom("payments").select("id").where("provider", "=", "invoice").execute();

    const counted = { already: await invoicePayments("already_paid"), mismatch: await invoicePayments("mismatch") };
    expect(toastOf(await follow(manager, await mark(order.id, invoice!.id)))).toEqual(["Ошибка", `Оплата по счёту № ${invoice!.number} уже отмечена — ничего не изменилось`]);
    expect(await invoicePayments("already_paid")).toBe(counted.already + 1);

    // Another pending order of the clinic, with an invoice whose total the order no longer has.
    const second = await buildOrderIn(db, "pending", { email });
    const clinic = await signedInAs(app, db, email);
    await clinic.request(`/cabinet/orders/${second.id}`, { form: { intent: "invoice", company: "ИП Орлова Анна Петровна", inn: "500100732259" } });
    const secondInvoice = await db.selectFrom("invoices").selectAll().where("order_id", "=", second.id).executeTakeFirstOrThrow();
    expect(toastOf(await follow(manager, await mark(second.id, invoice!.id)))).toEqual(["Ошибка", "Такого счёта у заказа нет — ничего не отмечено"]);
    for (const forged of ["not-an-id", "", "00000000-0000-4000-8000-000000000000"]) {
      const answer = await mark(second.id, forged);
      expect(answer.status, forged).toBe(302);
      expect(toastOf(await follow(manager, answer))).toEqual(["Ошибка", "Такого счёта у заказа нет — ничего не отмечено"]);
    }
    expect((await manager.request(`/backoffice/orders/${second.id}?index`, { form: { intent: "delete_everything" } })).status).toBe(400);
    await db.updateTable("orders").set({ total_cost: 990_000 }).where("id", "=", second.id).execute();
    expect(toastOf(await follow(manager, await mark(second.id, secondInvoice.id)))).toEqual(["Ошибка", `Сумма заказа изменилась после счёта № ${secondInvoice.number} — оплата не отмечена`]);
    expect(textOf(await (await clinic.request(`/cabinet/orders/${second.id}/invoices/${secondInvoice.id}`)).text())).toContain("Счёт больше не действует");
    // Money that arrived for an order that changed is a mismatch for the payments' alert; forged ids are not counted.
    expect(await invoicePayments("mismatch")).toBe(counted.mismatch + 1);

    expect(await db.selectFrom("payments").select("id").where("provider", "=", "invoice").execute()).toEqual(before);
    expect((await db.selectFrom("orders").select("status").where("id", "=", second.id).executeTakeFirstOrThrow()).status).toBe("pending");
    expect((await db.selectFrom("invoices").select("paid_at").where("id", "=", secondInvoice.id).executeTakeFirstOrThrow()).paid_at).toBeNull();
  });

  it("is offered only on the domestic market's unpaid orders", async () => {
    const db = app.database.db;
    const clinic = await signedInAs(app, db, email);
    // The paid order: no form, and a forged request is refused with a toast.
    const refused = await clinic.request(orderPath(), { form: { intent: "invoice", company: "ООО «Улыбка»", inn: "7707083893" } });
    expect(toastOf(await follow(clinic, refused))).toEqual(["Счёт не сформирован", "Счёт можно получить, только пока заказ ожидает оплаты"]);
    const euro = await buildOrderIn(db, "pending", { email, market: "international", currency: "eur" });
    const page = rendered(await (await clinic.request(`/cabinet/orders/${euro.id}`)).text());
    expect(page).not.toContain("Оплата по счёту");
    expect(await db.selectFrom("invoices").select("id").where("order_id", "=", euro.id).execute()).toEqual([]);
  });

  it("an order anonymised after its period keeps its paid invoice, the accounting record, and loses those never paid (ADR 074)", async () => {
    const db = app.database.db;
    const clinic = await signedInAs(app, db, email);
    const unpaid = await buildOrderIn(db, "pending", { email });
    await clinic.request(`/cabinet/orders/${unpaid.id}`, { form: { intent: "invoice", company: "ИП Орлова Анна Петровна", inn: "500100732259" } });
    await changeOrderStatus(db, unpaid.id, "cancelled", staff);
    expect(await db.selectFrom("invoices").select("id").where("order_id", "in", [order.id, unpaid.id]).execute()).toHaveLength(2);
    await anonymiseOrderRows(db, [order.id, unpaid.id], null);
    const kept = await db.selectFrom("invoices").select(["order_id", "client_company", "client_inn", "paid_at"]).where("order_id", "in", [order.id, unpaid.id]).execute();
    expect(kept).toHaveLength(1);
    expect(kept[0]).toMatchObject({ order_id: order.id, client_company: "ООО «Улыбка»", client_inn: "7707083893" });
  });
});
