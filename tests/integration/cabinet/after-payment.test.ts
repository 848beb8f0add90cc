import fs from "node:fs";
import path from "node:path";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { changeOrderStatus, createOrder } from "~/modules/orders/orders.server";
import { sendStatusMails } from "~/modules/notifications/status-mail.server";
import type { MailMessage } from "~/modules/mail/mailer.server";
import { browserFetch } from "../../support/app-server";
import { buildOrderIn, buildPatient, staff } from "../../support/builders";
import type { TestDatabase } from "../../support/database";
import { latestOutboxMail } from "../../support/mail-text";
import { startStripeDouble, type StripeDouble, stripeAppEnv } from "../../support/stripe-double";
import { startYooKassaDouble, type YooKassaDouble, yooKassaAppEnv } from "../../support/yookassa-double";
import { type TestApp, startApp } from "../../support/app";
import { decode, follow, gatePassed, signedInAs, toastOf } from "../backoffice/support";

/**
 * After the payment (ADR 070), over HTTP against the real app with YooKassa and Stripe doubles: the
 * payment page leads to the order in the cabinet, the receipt is kept and shown, the sign-in link
 * comes back only to local paths, the inbox's tabs count what they list, and the parcel's "received".
 */

type Browser = ReturnType<typeof browserFetch>;

function binaryStl(triangles: number): Buffer {
  const bytes = Buffer.alloc(84 + 50 * triangles);
  bytes.writeUInt32LE(triangles, 80);
  return bytes;
}

/** A fresh browser through the wizard to the summary (one patient, a hard matrix); returns the order id and e-mail. */
async function orderAtSummary(browser: Browser, t: TestDatabase) {
  const email = `after-${Date.now()}-${Math.random().toString(36).slice(2, 6)}@clinic.ru`;
  await browser.request("/order", { form: { intent: "next" } });
  await browser.request("/order", { form: { intent: "next", email, phone: "+7 900 000-00-01" } });
  await browser.request("/order", { form: { intent: "next", full_name: "Иванова Анна", address: "Москва, ул. Ленина, 1", consent: "on" } });
  await browser.request("/order", { form: { intent: "add_patient", patient_name: "Смирнова Е." } });
  await browser.request("/order", { form: { intent: "next" } });
  const form = new FormData();
  form.append("files", new Blob([new Uint8Array(binaryStl(4))]), "m-upper.stl");
  form.append("intent", "next");
  const upload = await fetch(`${browser.app.url}/order`, { method: "POST", body: form, headers: { Cookie: browser.jar.header(), Origin: browser.app.url }, redirect: "manual" });
  browser.jar.store(upload);
  await browser.request("/order", { form: { intent: "next", matrix_type: "hard" } });
  await browser.request("/order", { form: { intent: "skip_aligners" } });
  await browser.request("/order", { form: { intent: "skip_retainers" } });
  const order = await t.db.selectFrom("orders").select(["id", "wizard_step"]).where("email", "=", email).executeTakeFirstOrThrow();
  expect(order.wizard_step).toBe(11);
  return { orderId: order.id, email };
}

const mailsTo = (outbox: string, email: string) => (fs.existsSync(outbox) ? fs.readdirSync(outbox).filter((file) => fs.readFileSync(path.join(outbox, file), "utf8").includes(email)).length : 0);

describe("after the payment", () => {
  let t: TestDatabase;
  let app: TestApp;
  let yookassa: YooKassaDouble;
  let stripe: StripeDouble;
  const outbox = () => path.join(app.dataDir, "outbox");

  beforeAll(async () => {
    yookassa = await startYooKassaDouble();
    stripe = await startStripeDouble();
    app = await startApp({ env: { ...yooKassaAppEnv(yookassa), ...stripeAppEnv(stripe) }, timeoutMs: 180_000 });
    t = app.database;
  }, 240_000);
  afterAll(async () => {
    await app?.close();
    await yookassa?.close();
    await stripe?.close();
  });

  it("keeps YooKassa's receipt, and sends the payer who is not signed in one sign-in link that opens the order", async () => {
    const browser = browserFetch(app);
    const { orderId, email } = await orderAtSummary(browser, t);
    await browser.request("/order", { form: { intent: "pay" } });
    const attempt = await t.db.selectFrom("payments").selectAll().where("order_id", "=", orderId).executeTakeFirstOrThrow();
    yookassa.succeed(attempt.provider_payment_id!);

    const page = decode(await (await browser.request(`/payment/success?orderId=${orderId}`)).text());
    expect(page).toContain(`Заказ ${orderId.slice(0, 4).toUpperCase()} оплачен`);
    // The receipt as YooKassa registered it: stored whole, shown with its fiscal numbers.
    const stored = await t.db.selectFrom("payments").select("receipt").where("id", "=", attempt.id).executeTakeFirstOrThrow();
    expect(stored.receipt).toMatchObject({ registration: "succeeded", fiscalStorageNumber: "9960440300000001" });
    expect(page).toContain(`ФД № ${stored.receipt!.fiscalDocumentNumber}, ФН 9960440300000001`);
    // The address only masked: the page may be held by whoever has the payment link.
    expect(page).toContain(`Мы отправили ссылку для входа на ${email[0]}…@clinic.ru`);
    expect(page).not.toContain(email);

    // Opening the page again (it refreshes itself) sends no second mail.
    await browser.request(`/payment/success?orderId=${orderId}`);
    expect(mailsTo(outbox(), email)).toBe(1);

    // The mail's link signs in and opens the order, its receipt beside it.
    const mail = latestOutboxMail(outbox(), email)!;
    const token = new URL(mail.link).searchParams.get("token")!;
    const doctor = browserFetch(app);
    const confirm = await doctor.request("/auth/verify", { form: { token } });
    expect(confirm.headers.get("Location")).toBe(`/cabinet/orders/${orderId}`);
    const orderPage = decode(await (await doctor.request(`/cabinet/orders/${orderId}`)).text());
    expect(orderPage).toContain(`Заказ ${orderId.slice(0, 6).toUpperCase()}`);
    expect(orderPage).toContain("Смирнова Е.");
    expect(orderPage).toContain("m-upper.stl");
    expect(orderPage).toContain(`ФД № ${stored.receipt!.fiscalDocumentNumber}`);
    expect(orderPage).toMatch(/Заказ оформлен[\s\S]*Оплачен/);

    // Signed in, the payment page links to the order at once and mails nothing.
    const again = decode(await (await doctor.request(`/payment/success?orderId=${orderId}`)).text());
    expect(again).toContain(`href="/cabinet/orders/${orderId}"`);
    expect(again).toContain("Открыть заказ в личном кабинете");
    expect(mailsTo(outbox(), email)).toBe(1);
  });

  it("keeps Stripe's receipt page, also when the webhook marks the order paid, and shows it on the cabinet's card", async () => {
    const email = `stripe-${Math.random().toString(36).slice(2, 8)}@clinic.com`;
    const order = await createOrder(t.db, { market: "international", currency: "eur", email, fullName: "Dr. Anna Keller", address: "Berlin" }, { kind: "customer", label: "test" });
    await t.db.updateTable("orders").set({ total_cost: 18_200 }).where("id", "=", order.id).execute();
    const doctor = await signedInAs(app, t.db, email);
    expect((await doctor.request(`/pay/${order.id}`, { form: {} })).status).toBe(302);
    const attempt = await t.db.selectFrom("payments").selectAll().where("order_id", "=", order.id).executeTakeFirstOrThrow();
    expect(attempt.provider).toBe("stripe");
    stripe.complete(attempt.provider_payment_id!, { email });
    const { payload } = stripe.event("checkout.session.completed", attempt.provider_payment_id!);
    expect((await stripe.deliver(`${app.url}/api/webhooks/stripe`, payload)).status).toBe(200);
    const stored = await t.db.selectFrom("payments").select(["receipt", "status"]).where("id", "=", attempt.id).executeTakeFirstOrThrow();
    expect(stored.status).toBe("succeeded");
    expect(stored.receipt?.url).toMatch(new RegExp(`^${stripe.url}/(invoices|receipts)/`));
    const cabinet = decode(await (await doctor.request("/cabinet")).text());
    expect(cabinet).toContain(`href="${stored.receipt!.url}"`);
  });

  it("brings a sign-in link back only to a local path", async () => {
    for (const [redirectTo, expected] of [
      ["/cabinet/orders/00000000-0000-4000-8000-000000000000", "/cabinet/orders/00000000-0000-4000-8000-000000000000"],
      ["//evil.example/", "/cabinet"],
      ["https://evil.example/", "/cabinet"],
      ["/\\evil.example", "/cabinet"],
    ]) {
      const email = `return-${Math.random().toString(36).slice(2, 8)}@clinic.ru`;
      await browserFetch(app).request("/auth", { form: { email, redirectTo } });
      const token = new URL(latestOutboxMail(outbox(), email)!.link).searchParams.get("token")!;
      const confirm = await browserFetch(app).request("/auth/verify", { form: { token } });
      expect(confirm.headers.get("Location"), redirectTo).toBe(expected);
    }
    // A control character in the address is the sender's mistake (ADR 083): refused, and no link is sent.
    const email = `return-${Math.random().toString(36).slice(2, 8)}@clinic.ru`;
    const refused = await browserFetch(app).request("/auth", { form: { email, redirectTo: "/\t/evil.example" } });
    expect(refused.status).toBe(400);
    expect(latestOutboxMail(outbox(), email)).toBeFalsy();
  });

  it("links every status mail to its order, which opens after sign-in", async () => {
    const order = await buildOrderIn(t.db, "processing");
    await changeOrderStatus(t.db, order.id, "shipped", staff, { trackingNumber: "RA123456789RU", carrier: "russian_post" });
    // Past the time staff may undo the change in, when its mail goes (ADR 062).
    await sql`update order_status_history set created_at = now() - interval '1 hour' where order_id = ${order.id}`.execute(t.db);
    const sent: MailMessage[] = [];
    await sendStatusMails(t.db, { mailer: { kind: "outbox", send: async (message) => (sent.push(message), { id: String(sent.length) }) }, publicUrl: app.url, limit: 1000 });
    const shipped = sent.find((message) => message.to === order.email && message.subject.includes("Отправлен"));
    expect(shipped?.text).toContain(`${app.url}/cabinet/orders/${order.id}`);
    expect(shipped?.text).toContain("https://www.pochta.ru/tracking?barcode=RA123456789RU");
    const anonymous = await browserFetch(app).request(`/cabinet/orders/${order.id}`);
    expect(anonymous.headers.get("Location")).toBe(`/auth?redirectTo=${encodeURIComponent(`/cabinet/orders/${order.id}`)}`);
  });

  describe("the cabinet as an inbox", () => {
    const email = "inbox@clinic-tabs.test";
    let doctor: Browser;
    const ids: Record<string, string[]> = {};

    beforeAll(async () => {
      const plan = { pending: 2, paid: 3, processing: 1, shipped: 2, completed: 21, cancelled: 1 } as const;
      for (const [status, count] of Object.entries(plan)) {
        ids[status] = [];
        for (let i = 0; i < count; i++) {
          const order = await buildOrderIn(t.db, status as keyof typeof plan, { email });
          await buildPatient(t.db, order.id, `Пациент ${status} ${i}`);
          ids[status]!.push(order.id);
        }
      }
      await buildOrderIn(t.db, "draft", { email });
      await buildOrderIn(t.db, "shipped", { email: "other@clinic-else.test" });
      doctor = await signedInAs(app, t.db, email);
    });

    const cardIds = (html: string) => [...html.matchAll(/href="\/cabinet\/orders\/([0-9a-f-]{36})"/g)].map((match) => match[1]!);
    // "Нужен ваш ответ" (answer=1, ADR 104) is a tab too.
    const tabCounts = (html: string) =>
      Object.fromEntries([...html.matchAll(/href="\/cabinet\??(?:status=(\w+)|(answer)=1)?[^"]*"[^>]*>[^<]*<span class="tab-count">(\d+)<\/span>/g)].map((match) => [match[1] ?? match[2] ?? "all", Number(match[3])]));

    it("counts in each tab exactly the orders it lists, never a draft or another clinic's", async () => {
      const first = await (await doctor.request("/cabinet")).text();
      const counts = tabCounts(first);
      expect(counts).toEqual({ all: 30, pending: 2, paid: 3, processing: 1, shipped: 2, completed: 21, cancelled: 1, answer: 0 });
      for (const [status, expected] of Object.entries(ids)) {
        const listed: string[] = [];
        let next: string | null = `/cabinet?status=${status}`;
        while (next) {
          const html = decode(await (await doctor.request(next)).text());
          listed.push(...cardIds(html));
          const after = /href="\/cabinet\?([^"]*after=[^"]+)"[^>]*>Вперёд/.exec(html)?.[1];
          next = after ? `/cabinet?${after}` : null;
        }
        expect(listed.sort(), status).toEqual([...expected].sort());
        expect(listed.length).toBe(counts[status]);
      }
    });

    it("pages by date with no order twice or missed, newest or oldest first, and names the patients on the card", async () => {
      const pageOf = async (query: string) => decode(await (await doctor.request(`/cabinet?${query}`)).text());
      const newest = await pageOf("");
      const afterLink = /href="\/cabinet\?([^"]*after=[^"]+)"/.exec(newest)?.[1];
      expect(afterLink).toBeTruthy();
      const rest = await pageOf(afterLink!);
      const all = [...cardIds(newest), ...cardIds(rest)];
      expect(cardIds(newest)).toHaveLength(20);
      expect(new Set(all).size).toBe(30);
      const rows = await t.db.selectFrom("orders").select("id").where("email", "=", email).where("status", "<>", "draft").orderBy("created_at", "desc").orderBy("id", "desc").execute();
      expect(all).toEqual(rows.map((row) => row.id));
      const oldest = await pageOf("sort=oldest");
      expect(cardIds(oldest)).toEqual(rows.map((row) => row.id).reverse().slice(0, 20));
      expect(newest).toContain("Пациенты: Пациент");
      // A forged cursor reads as the first page.
      expect(cardIds(await pageOf("after=1999-01-01_'%3Bdrop"))).toEqual(cardIds(newest));
    });

    it("names each patient's files on the card in their order, without a record that names no stored file", async () => {
      const order = await buildOrderIn(t.db, "paid", { email: "files@clinic-names.test" });
      const patient = await buildPatient(t.db, order.id, "Козлова Ю.");
      const file = (name: string, step: number) => ({ originalName: name, storagePath: `order_${order.id}/${patient.folder_name}/aligners/${name}`, url: `/files/orders/${name}`, type: "aligners", size: 100, jaw: "upper", stepNumber: step });
      const aligners = [file("Шаг 2 верх.stl", 2), { ...file("без пути.stl", 3), storagePath: "" }, file("Шаг 1 верх.stl", 1)];
      const matrix = JSON.stringify([file("Матрица верх.stl", 0), null, { originalName: "без адреса.stl", storagePath: "x" }]);
      await sql`update orders_patients set aligner_files_info = ${JSON.stringify(aligners)}::jsonb, matrix_files_info = ${matrix}::jsonb where id = ${patient.id}`.execute(t.db);
      const clinic = await signedInAs(app, t.db, "files@clinic-names.test");
      const card = decode(await (await clinic.request("/cabinet")).text()).replace(/<!-- -->/g, "");
      expect(card).toContain("Элайнеры: Шаг 2 верх.stl, Шаг 1 верх.stl");
      expect(card).toContain("Матрицы: Матрица верх.stl");
      expect(card).not.toContain("без пути.stl");
      expect(card).not.toContain("без адреса.stl");
    });

    it("marks a shipped parcel received once, recorded with who and when, and staff see it", async () => {
      const [shippedId] = ids.shipped!;
      const page = decode(await (await doctor.request(`/cabinet/orders/${shippedId}`)).text());
      expect(page).toContain("RA000000001RU");
      const marked = await doctor.request(`/cabinet/orders/${shippedId}`, { form: { intent: "received" } });
      expect(marked.status).toBe(302);
      expect(toastOf(await follow(doctor, marked))).toEqual(["Отметили: посылка получена"]);
      const row = await t.db.selectFrom("orders").select(["parcel_received_at", "parcel_received_by", "status"]).where("id", "=", shippedId!).executeTakeFirstOrThrow();
      expect(row.parcel_received_by).toBe(email);
      expect(row.parcel_received_at).toBeInstanceOf(Date);
      expect(row.status).toBe("shipped");
      // Twice marks once.
      const twice = await doctor.request(`/cabinet/orders/${shippedId}`, { form: { intent: "received" } });
      expect(toastOf(await follow(doctor, twice))).toEqual(["Получение посылки уже отмечено"]);
      expect((await t.db.selectFrom("orders").select("parcel_received_at").where("id", "=", shippedId!).executeTakeFirstOrThrow()).parcel_received_at).toEqual(row.parcel_received_at);
      expect(decode(await (await doctor.request(`/cabinet/orders/${shippedId}`)).text())).toMatch(/Посылка получена/);
      // Staff read it on the order's card.
      const office = await gatePassed(app);
      expect(decode(await (await office.request(`/backoffice?status=shipped&q=${encodeURIComponent(email)}`)).text())).toContain("Клиент получил посылку");
    });

    it("refuses the mark on an order not shipped, and forged or foreign ids as if they did not exist", async () => {
      const [paidId] = ids.paid!;
      const notShipped = await doctor.request(`/cabinet/orders/${paidId}`, { form: { intent: "received" } });
      expect(toastOf(await follow(doctor, notShipped))).toEqual(["Отметить получение можно, когда заказ отправлен"]);
      expect((await t.db.selectFrom("orders").select("parcel_received_at").where("id", "=", paidId!).executeTakeFirstOrThrow()).parcel_received_at).toBeNull();

      const foreign = await t.db.selectFrom("orders").select("id").where("email", "=", "other@clinic-else.test").executeTakeFirstOrThrow();
      const draft = await t.db.selectFrom("orders").select("id").where("email", "=", email).where("status", "=", "draft").executeTakeFirstOrThrow();
      for (const id of [foreign.id, draft.id, "not-an-id", "00000000-0000-4000-8000-000000000000"]) {
        expect((await doctor.request(`/cabinet/orders/${id}`)).status, id).toBe(404);
        expect((await doctor.request(`/cabinet/orders/${id}`, { form: { intent: "received" } })).status, id).toBe(404);
      }
      expect((await t.db.selectFrom("orders").select("parcel_received_at").where("id", "=", foreign.id).executeTakeFirstOrThrow()).parcel_received_at).toBeNull();
      expect((await doctor.request(`/cabinet/orders/${ids.shipped![1]}`, { form: { intent: "cancel" } })).status).toBe(400);
      // The inbox never lists another clinic's order.
      const all = decode(await (await doctor.request("/cabinet?status=shipped")).text());
      expect(all).not.toContain(foreign.id);
    });
  });
});
