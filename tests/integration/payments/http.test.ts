import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "~/modules/db/db.server";
import { changeOrderStatus, createOrder, findOrder, orderHistory } from "~/modules/orders/orders.server";
import { browserFetch } from "../../support/app-server";
import type { TestDatabase } from "../../support/database";
import { startStripeDouble, stripeSignature, type StripeDouble, stripeAppEnv } from "../../support/stripe-double";
import { startYooKassaDouble, type YooKassaDouble, yooKassaAppEnv } from "../../support/yookassa-double";
import type { MailMessage } from "~/modules/mail/mailer.server";
import { formatMoney } from "~/modules/money/format";
import { getConfig } from "~/modules/config/config.server";
import { paymentResultPath } from "~/modules/payments/payment-links.server";
import { sendStatusMails } from "~/modules/notifications/status-mail.server";
import { decode, follow, signedInAs, toastOf } from "../backoffice/support";
import { SECRETS, type TestApp, startApp } from "../../support/app";

/**
 * Payments over HTTP: the real app (as `npm start` runs it) configured with YooKassa and Stripe
 * pointed at local doubles. Webhooks arrive without an Origin, as providers send them.
 */

type Browser = ReturnType<typeof browserFetch>;

function binaryStl(triangles: number): Buffer {
  const bytes = Buffer.alloc(84 + 50 * triangles);
  bytes.writeUInt32LE(triangles, 80);
  return bytes;
}

/** Walks a fresh browser through the wizard to the summary: one patient, 1 hard matrix; returns the order id. */
async function orderAtSummary(browser: Browser, t: TestDatabase): Promise<string> {
  const email = `pay-${Date.now()}-${Math.random().toString(36).slice(2, 6)}@clinic.ru`;
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
  return order.id;
}

const statusOf = async (db: DB, orderId: string) => (await findOrder(db, orderId))!.status;
const paidChanges = async (db: DB, orderId: string) => (await orderHistory(db, orderId)).filter((entry) => entry.to_status === "paid").length;
const attemptsOf = (db: DB, orderId: string) => db.selectFrom("payments").selectAll().where("order_id", "=", orderId).orderBy("created_at").execute();

describe("payments over HTTP", () => {
  let t: TestDatabase;
  let app: TestApp;
  let yookassa: YooKassaDouble;
  let stripe: StripeDouble;

  beforeAll(async () => {
    yookassa = await startYooKassaDouble();
    stripe = await startStripeDouble();
    app = await startApp({
      env: {
        ...yooKassaAppEnv(yookassa),
        ...stripeAppEnv(stripe),
        PAYMENT_TIMEOUT_MS: "1000",
      },
    });
    t = app.database;
  });
  afterAll(async () => {
    await app?.close();
    await yookassa?.close();
    await stripe?.close();
  });

  async function staff() {
    const browser = browserFetch(app);
    const gate = await browser.request("/backoffice/login", { form: { password: SECRETS.BACKOFFICE_PASSWORD, redirectTo: "/backoffice" } });
    expect(gate.status).toBe(302);
    return browser;
  }

  async function refreshToast(office: Browser) {
    const refreshed = await office.request("/backoffice?index", { form: { intent: "refresh_payments" } });
    expect(refreshed.status).toBe(302);
    return (await office.request(refreshed.headers.get("Location")!)).text();
  }

  it("refreshes statuses from the back-office with the spec's three messages", async () => {
    const office = await staff();
    expect(await refreshToast(office)).toContain("Нет заказов со статусом Ожидает оплаты для проверки");

    const browser = browserFetch(app);
    const orderId = await orderAtSummary(browser, t);
    const pay = await browser.request("/order", { form: { intent: "pay" } });
    expect(pay.headers.get("Location")).toMatch(new RegExp(`^${yookassa.url}/checkout/`));
    expect(await refreshToast(office)).toContain("Новых оплаченных заказов не найдено");
    yookassa.succeed((await attemptsOf(t.db, orderId))[0]!.provider_payment_id!);
    expect(await refreshToast(office)).toContain("Готово: обновлены статусы 1 заказа");
    expect(await statusOf(t.db, orderId)).toBe("paid");
  });

  it("hands a summary to YooKassa, clears the current order, and marks paid only once the provider confirms", async () => {
    const browser = browserFetch(app);
    const orderId = await orderAtSummary(browser, t);
    const pay = await browser.request("/order", { form: { intent: "pay" } });
    expect(pay.status).toBe(302);
    expect(browser.jar.has("current_order")).toBe(false);
    const [attempt] = await attemptsOf(t.db, orderId);
    expect(pay.headers.get("Location")).toBe(yookassa.payments.get(attempt!.provider_payment_id!)!.confirmation.confirmation_url);
    const sent = yookassa.payments.get(attempt!.provider_payment_id!)!;
    expect(sent).toMatchObject({ amount: { value: "10000.00", currency: "RUB" }, description: `Aligner order №${orderId.slice(0, 6).toUpperCase()}`, metadata: { orderId } });
    expect(sent.confirmation.return_url).toBe(`${app.url}${paymentResultPath(getConfig(), orderId)}`);

    // A forged return: the payment is unpaid, so the page waits and the order stays pending.
    const forged = await browser.request(`/payment/success?orderId=${orderId}&paymentId=${attempt!.provider_payment_id}`);
    expect(forged.status).toBe(200);
    const waiting = await forged.text();
    expect(waiting).toContain(`Ожидаем подтверждение оплаты заказа ${orderId.slice(0, 4).toUpperCase()}`);
    expect(waiting).toMatch(/<meta http-equiv="refresh" content="5"/);
    expect(await statusOf(t.db, orderId)).toBe("pending");
    // A stranger without the return address's token learns nothing, not even that the order exists.
    const stranger = await browserFetch(app).request(`/payment/success?orderId=${orderId}&paymentId=not-this-order`);
    expect(stranger.status).toBe(404);
    expect(await stranger.text()).not.toContain(`Ожидаем подтверждение оплаты заказа ${orderId.slice(0, 4).toUpperCase()}`);
    expect(await statusOf(t.db, orderId)).toBe("pending");

    yookassa.succeed(attempt!.provider_payment_id!);
    const paid = await (await browser.request(`/payment/success?orderId=${orderId}`)).text();
    expect(paid).toContain(`Заказ ${orderId.slice(0, 4).toUpperCase()} оплачен`);
    expect(await statusOf(t.db, orderId)).toBe("paid");
    await browser.request(`/payment/success?orderId=${orderId}`);
    expect(await paidChanges(t.db, orderId)).toBe(1);
  });

  it("keeps the order pending and the button usable when YooKassa times out, then retries with the same key", async () => {
    const browser = browserFetch(app);
    const orderId = await orderAtSummary(browser, t);
    yookassa.failNextCreates("hang");
    const started = Date.now();
    const failed = await browser.request("/order", { form: { intent: "pay" } });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(failed.status).toBe(302);
    expect(failed.headers.get("Location")).toBe(`/order?id=${orderId}`);
    expect(await statusOf(t.db, orderId)).toBe("pending");
    const page = await (await browser.request(failed.headers.get("Location")!)).text();
    expect(page).toContain("Ошибка оплаты");
    expect(page).toContain("Платёжная система не ответила");
    expect(page).toMatch(/<button[^>]*name="intent"[^>]*value="pay"(?![^>]*disabled)[^>]*>/);
    const [open] = await attemptsOf(t.db, orderId);
    expect(open).toMatchObject({ status: "created", provider_payment_id: null });

    const retry = await browser.request("/order", { form: { intent: "pay" } });
    expect(retry.headers.get("Location")).toMatch(new RegExp(`^${yookassa.url}/checkout/`));
    const attempts = await attemptsOf(t.db, orderId);
    expect(attempts).toHaveLength(1);
    expect(attempts[0]!.idempotence_key).toBe(open!.idempotence_key);
    expect(yookassa.requests.filter((request) => request.idempotenceKey === open!.idempotence_key)).toHaveLength(2);
  });

  it("says the spec's words when YooKassa refuses the payment, and the order stays payable", async () => {
    const browser = browserFetch(app);
    const orderId = await orderAtSummary(browser, t);
    yookassa.failNextCreates("400");
    const refused = await browser.request("/order", { form: { intent: "pay" } });
    expect(refused.headers.get("Location")).toBe(`/order?id=${orderId}`);
    const page = await (await browser.request(refused.headers.get("Location")!)).text();
    expect(page).toContain("Ошибка при создании платежа");
    expect(page).toContain("Не удалось создать платеж. Попробуйте еще раз.");
    expect(await statusOf(t.db, orderId)).toBe("pending");
    expect((await browser.request("/order", { form: { intent: "pay" } })).headers.get("Location")).toMatch(new RegExp(`^${yookassa.url}/checkout/`));
  });

  it.each([
    { lng: "ru", toast: ["Ошибка оплаты", "Произошла ошибка при создании платежа"] },
    { lng: "en", toast: ["Payment error", "An error occurred while creating the payment"] },
  ])("paying from the cabinet, a refused payment is said in the staff side's words ($lng), and the order stays payable", async ({ lng, toast }) => {
    const browser = browserFetch(app);
    const orderId = await orderAtSummary(browser, t);
    yookassa.failNextCreates("400");
    await browser.request("/order", { form: { intent: "pay" } });
    expect(await statusOf(t.db, orderId)).toBe("pending");
    const { email } = (await findOrder(t.db, orderId))!;
    const client = await signedInAs(app, t.db, email!);
    expect((await client.request("/language", { form: { lng, redirectTo: "/cabinet" } })).status).toBe(302);

    yookassa.failNextCreates("400");
    const refused = await client.request(`/pay/${orderId}`, { form: {} });
    expect(refused.headers.get("Location")).toBe(`/pay/${orderId}`);
    expect(toastOf(await follow(client, refused))?.map(decode)).toEqual(toast);
    expect(await statusOf(t.db, orderId)).toBe("pending");
    expect((await client.request(`/pay/${orderId}`, { form: {} })).headers.get("Location")).toMatch(new RegExp(`^${yookassa.url}/checkout/`));
  });

  it("refuses a YooKassa notification whose amount differs from the order's; a replayed one changes nothing", async () => {
    const browser = browserFetch(app);
    const orderId = await orderAtSummary(browser, t);
    await browser.request("/order", { form: { intent: "pay" } });
    const [attempt] = await attemptsOf(t.db, orderId);
    const id = attempt!.provider_payment_id!;
    const webhook = `${app.url}/api/webhooks/yookassa`;

    yookassa.setAmount(id, "1.00");
    yookassa.succeed(id);
    const refused = await yookassa.notify(webhook, "payment.succeeded", id);
    expect(refused.status).toBe(400);
    expect(await statusOf(t.db, orderId)).toBe("pending");

    yookassa.setAmount(id, "10000.00");
    const accepted = await yookassa.notify(webhook, "payment.succeeded", id);
    expect(accepted.status).toBe(200);
    expect(await accepted.json()).toEqual({ outcome: "paid" });
    const paid = (await findOrder(t.db, orderId))!;
    expect(paid.status).toBe("paid");
    const replay = await yookassa.notify(webhook, "payment.succeeded", id);
    expect(replay.status).toBe(200);
    expect(await replay.json()).toEqual({ outcome: "duplicate" });
    expect((await findOrder(t.db, orderId))!.updated_at).toEqual(paid.updated_at);
    expect(await paidChanges(t.db, orderId)).toBe(1);
    expect(await t.db.selectFrom("payment_events").selectAll().where("payment_id", "=", attempt!.id).execute()).toHaveLength(1);
  });

  it("pays an international order through a back-office payment link and Stripe; a bad signature gets 400", async () => {
    const draft = await createOrder(
      t.db,
      { market: "international", currency: "eur", email: "dr.keller@clinic.com", fullName: "Dr. Anna Keller", address: "Berlin" },
      { kind: "customer", label: "test" },
    );
    await t.db.updateTable("orders").set({ total_cost: 18_200 }).where("id", "=", draft.id).execute();
    const office = await staff();
    const created = await office.request("/backoffice?index", { form: { intent: "payment_link", orderId: draft.id } });
    expect(created.status).toBe(302);
    const officePage = await (await office.request(created.headers.get("Location")!)).text();
    expect(officePage).toContain("Ссылка создана");
    // The international order's link carries the international market's configured origin.
    const link = new RegExp(`http://localhost:${app.port}(/pay/${draft.id}\\?t=[A-Za-z0-9_-]+)`).exec(officePage)?.[1];
    expect(link).toBeTruthy();

    // Opening the link changes nothing; a stranger without the token sees nothing.
    const customer = browserFetch(app);
    const opened = await customer.request(link!);
    expect(opened.status).toBe(200);
    const summary = await opened.text();
    expect(summary).toContain(`Оплата заказа №${draft.id.slice(0, 6).toUpperCase()}`);
    expect(summary).toContain("Черновик");
    expect(await statusOf(t.db, draft.id)).toBe("draft");
    expect(await attemptsOf(t.db, draft.id)).toEqual([]);
    expect((await browserFetch(app).request(`/pay/${draft.id}`)).status).toBe(404);
    expect((await browserFetch(app).request(`/pay/${draft.id}?t=forged`)).status).toBe(404);

    // Only the POST pays: draft → pending, a Checkout Session, the customer sent to Stripe.
    const pay = await customer.request(link!, { form: { t: new URL(link!, app.url).searchParams.get("t")! } });
    expect(pay.status).toBe(302);
    expect(await statusOf(t.db, draft.id)).toBe("pending");
    const [attempt] = await attemptsOf(t.db, draft.id);
    expect(attempt).toMatchObject({ provider: "stripe", amount: 18_200, currency: "eur" });
    const session = stripe.sessions.get(attempt!.provider_payment_id!)!;
    expect(pay.headers.get("Location")).toBe(session.url);
    // Return addresses are the international market's configured origin, not the address the request used.
    expect(session.success_url).toBe(`http://localhost:${app.port}${paymentResultPath(getConfig(), draft.id)}&paymentId={CHECKOUT_SESSION_ID}`);
    expect(session.cancel_url).toBe(`http://localhost:${app.port}${link}`);
    // The link lets this browser pay this order and nothing more: the order is not added to its orders.
    expect((await customer.request(`/pay/${draft.id}`)).status).toBe(404);
    expect((await customer.request(`/order?id=${draft.id}`)).status).toBe(404);
    expect(customer.jar.has("my_orders")).toBe(false);
    // The return address's own token shows the result, and "pay again" leads back by the link.
    const back = await (await customer.request(session.success_url.replace(`http://localhost:${app.port}`, "").replace("{CHECKOUT_SESSION_ID}", session.id))).text();
    expect(back).toContain(draft.id.slice(0, 4).toUpperCase());
    expect(back).toContain(`href="${link!.replaceAll("&", "&amp;")}"`);
    expect((await customer.request(`/payment/success?orderId=${draft.id}`)).status).toBe(404);

    stripe.complete(session.id);
    const { payload } = stripe.event("checkout.session.completed", session.id);
    const webhook = `${app.url}/api/webhooks/stripe`;
    const bad = await stripe.deliver(webhook, payload, { secret: "whsec_not_ours" });
    expect(bad.status).toBe(400);
    const unsigned = await fetch(webhook, { method: "POST", body: payload, headers: { "Content-Type": "application/json" } });
    expect(unsigned.status).toBe(400);
    expect(await statusOf(t.db, draft.id)).toBe("pending");
    const good = await stripe.deliver(webhook, payload);
    expect(good.status).toBe(200);
    expect(await statusOf(t.db, draft.id)).toBe("paid");
    expect((await stripe.deliver(webhook, payload)).status).toBe(200);
    expect(await paidChanges(t.db, draft.id)).toBe(1);
    expect(stripeSignature(payload, stripe.webhookSecret)).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
  });

  it("asks an EU clinic for its VAT number at Stripe's checkout; the paid mail and the cabinet show the amount in euros with it", async () => {
    const email = "praxis.weber@clinic.com";
    const draft = await createOrder(t.db, { market: "international", currency: "eur", email, fullName: "Dr. Jonas Weber", address: "München" }, { kind: "customer", label: "test" });
    await t.db.updateTable("orders").set({ total_cost: 18_200 }).where("id", "=", draft.id).execute();
    const office = await staff();
    const created = await office.request("/backoffice?index", { form: { intent: "payment_link", orderId: draft.id } });
    const link = new RegExp(`http://localhost:${app.port}(/pay/${draft.id}\\?t=[A-Za-z0-9_-]+)`).exec(await (await office.request(created.headers.get("Location")!)).text())?.[1];
    const customer = browserFetch(app);
    expect((await customer.request(link!, { form: { t: new URL(link!, app.url).searchParams.get("t")! } })).status).toBe(302);
    const [attempt] = await attemptsOf(t.db, draft.id);
    const session = stripe.sessions.get(attempt!.provider_payment_id!)!;
    // The Checkout Session offers "purchasing as a business" with a tax ID, and makes Stripe issue the invoice.
    expect(session.tax_id_collection).toEqual({ enabled: true, required: "never" });
    expect(session.billing_address_collection).toBe("required");
    expect(session.invoice_creation).toEqual({ enabled: true, invoice_data: { description: session.metadata.description, metadata: { orderId: draft.id } } });

    stripe.complete(session.id, { email, businessName: "Zahnarztpraxis Weber", vatNumber: "DE123456789", country: "DE" });
    expect((await stripe.deliver(`${app.url}/api/webhooks/stripe`, stripe.event("checkout.session.completed", session.id).payload)).status).toBe(200);
    expect(await statusOf(t.db, draft.id)).toBe("paid");
    const [paid] = await attemptsOf(t.db, draft.id);
    expect(paid).toMatchObject({ status: "succeeded", customer_vat_number: "DE123456789", customer_business_name: "Zahnarztpraxis Weber", invoice_id: session.invoice });
    expect(paid!.invoice_id).toMatch(/^in_/);

    // The paid mail, in the order's language (the market's: English), names the amount and the VAT number.
    const sent: MailMessage[] = [];
    await sendStatusMails(t.db, { mailer: { kind: "outbox", send: async (message) => (sent.push(message), { id: "1" }) }, publicUrl: "https://aligners.test" });
    const mail = sent.find((message) => message.to === email);
    expect(mail?.text).toContain(`Amount paid: ${formatMoney(18_200, "eur", "en")}`);
    expect(mail?.text).toContain("Clinic VAT number: DE123456789");

    // The cabinet shows the same, in the reader's language.
    const cabinet = await signedInAs(app, t.db, email);
    await cabinet.request("/language", { form: { lng: "de", redirectTo: "/cabinet" } });
    const page = await (await cabinet.request("/cabinet")).text();
    expect(page).toContain(`Bezahlt: ${formatMoney(18_200, "eur", "de")}`);
    expect(page).toContain("USt-IdNr. der Praxis: DE123456789");
  });

  it("shows no VAT number where the clinic gave none, and the double refuses what Stripe refuses", async () => {
    const refused = await fetch(`${stripe.url}/v1/checkout/sessions`, {
      method: "POST",
      headers: { Authorization: `Bearer ${stripe.secretKey}`, "Content-Type": "application/x-www-form-urlencoded" },
      body: "mode=payment&success_url=https://a/s&cancel_url=https://a/c&line_items[0][quantity]=1&line_items[0][price_data][currency]=eur&line_items[0][price_data][unit_amount]=100&line_items[0][price_data][product_data][name]=x&tax_id_collection[enabled]=yes",
    });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("parameter_invalid_boolean");

    const email = "studio.rossi@clinic.com";
    const draft = await createOrder(t.db, { market: "international", currency: "eur", email, fullName: "Dr. Rossi", address: "Milano" }, { kind: "customer", label: "test" });
    await t.db.updateTable("orders").set({ total_cost: 9_000 }).where("id", "=", draft.id).execute();
    const office = await staff();
    const created = await office.request("/backoffice?index", { form: { intent: "payment_link", orderId: draft.id } });
    const link = new RegExp(`http://localhost:${app.port}(/pay/${draft.id}\\?t=[A-Za-z0-9_-]+)`).exec(await (await office.request(created.headers.get("Location")!)).text())?.[1];
    const customer = browserFetch(app);
    await customer.request(link!, { form: { t: new URL(link!, app.url).searchParams.get("t")! } });
    const [attempt] = await attemptsOf(t.db, draft.id);
    stripe.complete(attempt!.provider_payment_id!, { email });
    expect((await stripe.deliver(`${app.url}/api/webhooks/stripe`, stripe.event("checkout.session.completed", attempt!.provider_payment_id!).payload)).status).toBe(200);
    expect((await attemptsOf(t.db, draft.id))[0]).toMatchObject({ status: "succeeded", customer_vat_number: null });
    // The page without its serialized texts (which hold every cabinet text).
    const page = (await (await (await signedInAs(app, t.db, email)).request("/cabinet")).text()).replace(/<script[\s\S]*?<\/script>/g, "");
    expect(page).toContain(`Оплачено: ${formatMoney(9_000, "eur", "ru")}`);
    expect(page).not.toContain("Номер плательщика НДС");
  });

  it("refuses a payment link for an order without a total", async () => {
    const empty = await createOrder(t.db, { market: "domestic", currency: "rub", email: "nothing@clinic.ru" }, { kind: "customer", label: "test" });
    const office = await staff();
    const refused = await office.request("/backoffice?index", { form: { intent: "payment_link", orderId: empty.id } });
    expect(await (await office.request(refused.headers.get("Location")!)).text()).toContain("Невозможно создать ссылку на оплату для заказа без суммы");
  });

  it("answers webhooks of a provider only with that provider's checks, and GET with 405", async () => {
    expect((await fetch(`${app.url}/api/webhooks/yookassa`)).status).toBe(405);
    const junk = await fetch(`${app.url}/api/webhooks/yookassa`, { method: "POST", body: "{}", headers: { "Content-Type": "application/json" } });
    expect(junk.status).toBe(400);
    const sandbox = await fetch(`${app.url}/api/webhooks/sandbox`, { method: "POST", body: JSON.stringify({ event: "payment.succeeded", object: { id: "sbx_x" } }) });
    expect(sandbox.status).toBe(400);
  });

  it("a cancelled order's return page says the payment did not go through", async () => {
    const order = await createOrder(t.db, { market: "domestic", currency: "rub", email: "gone@clinic.ru" }, { kind: "customer", label: "test" });
    await changeOrderStatus(t.db, order.id, "cancelled", { kind: "staff", label: "test" });
    expect(await (await browserFetch(app).request(paymentResultPath(getConfig(), order.id))).text()).toContain("не прошла");
  });
});
