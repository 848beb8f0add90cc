import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NotificationRefusedError, type PaymentRequest, ProviderRefusedError, ProviderUnavailableError } from "~/modules/payments/provider";
import { StripePaymentProvider } from "~/modules/payments/stripe-provider.server";
import { YooKassaPaymentProvider } from "~/modules/payments/yookassa-provider.server";
import { startStripeDouble, stripeSignature, type StripeDouble } from "../../support/stripe-double";
import { startYooKassaDouble, type YooKassaDouble } from "../../support/yookassa-double";

/** The real provider modules against local doubles that follow YooKassa's and Stripe's documented APIs. */

const ORDER_ID = "3f2a0c1e-0000-4000-8000-000000000001";

function request(overrides: Partial<PaymentRequest> = {}): PaymentRequest {
  return {
    orderId: ORDER_ID,
    amount: 1_050_000,
    currency: "rub",
    description: "Aligner order №3F2A0C",
    lines: [
      { description: "Элайнеры 1-слойные для Смирнова Е.", quantity: 10, price: 75_000 },
      { description: "Матрицы твердые для Смирнова Е.", quantity: 2, price: 75_000 },
      { description: "Упаковка и доставка", quantity: 1, price: 150_000 },
    ],
    customer: { fullName: "Иванова Анна", email: "clinic@example.ru", phone: "+7 900 000-00-01" },
    returnUrl: `http://shop.test/payment/success?orderId=${ORDER_ID}`,
    cancelUrl: `http://shop.test/pay/${ORDER_ID}`,
    idempotenceKey: crypto.randomUUID(),
    discountPercent: 3,
    ...overrides,
  };
}

/**
 * The providers' time limit here: long enough for a local double's answer on a loaded machine (700 ms
 * was not), short enough that a hanging provider is given up on quickly.
 */
const PROVIDER_TIMEOUT_MS = 3_000;

describe("YooKassa provider against the YooKassa double", () => {
  let double: YooKassaDouble;
  let provider: YooKassaPaymentProvider;

  beforeAll(async () => {
    double = await startYooKassaDouble();
    provider = new YooKassaPaymentProvider({ shopId: double.shopId, secretKey: double.secretKey, apiUrl: double.apiUrl, timeoutMs: PROVIDER_TIMEOUT_MS });
  });
  afterAll(async () => {
    await double?.close();
  });

  it("creates a redirect payment with Basic auth, the idempotence key, the order and receipt items from the lines", async () => {
    const sent = request();
    const created = await provider.create(sent);
    expect(created.status).toBe("pending");
    expect(created.confirmationUrl).toBe(`${double.url}/checkout/${created.providerPaymentId}`);
    const stored = double.payments.get(created.providerPaymentId)!;
    expect(stored.amount).toEqual({ value: "10500.00", currency: "RUB" });
    expect(stored.description).toBe("Aligner order №3F2A0C");
    expect(stored.metadata.orderId).toBe(ORDER_ID);
    expect(stored.confirmation.return_url).toBe(sent.returnUrl);
    expect(stored.receipt!.items.map((item) => [item.description, item.quantity, item.amount.value])).toEqual([
      ["Элайнеры 1-слойные для Смирнова Е.", "10.00", "750.00"],
      ["Матрицы твердые для Смирнова Е.", "2.00", "750.00"],
      ["Упаковка и доставка", "1.00", "1500.00"],
    ]);
    expect(stored.receipt!.customer).toEqual({ full_name: "Иванова Анна", email: "clinic@example.ru" });
    expect(double.requests.at(-1)).toEqual({ method: "POST", path: "/v3/payments", idempotenceKey: sent.idempotenceKey });
  });

  it("answers a retry with the same key with the same payment", async () => {
    const sent = request();
    const first = await provider.create(sent);
    const again = await provider.create(sent);
    expect(again.providerPaymentId).toBe(first.providerPaymentId);
  });

  it("reads a payment's status, amount and order from the API", async () => {
    const created = await provider.create(request());
    expect(await provider.fetch(created.providerPaymentId)).toEqual({ providerPaymentId: created.providerPaymentId, status: "pending", amount: 1_050_000, currency: "rub", orderId: ORDER_ID });
    double.succeed(created.providerPaymentId);
    expect((await provider.fetch(created.providerPaymentId))?.status).toBe("succeeded");
    expect(await provider.fetch("00000000-0000-0000-0000-000000000000")).toBeNull();
  });

  it("takes only the payment id from a notification and reads the rest from the API", async () => {
    const created = await provider.create(request());
    const forged = JSON.stringify({ type: "notification", event: "payment.succeeded", object: { id: created.providerPaymentId, status: "succeeded", amount: { value: "1.00", currency: "RUB" } } });
    const notification = await provider.verifyNotification(forged);
    expect(notification.payment).toMatchObject({ status: "pending", amount: 1_050_000 });
    expect(notification.eventId).toBe(`${created.providerPaymentId}:pending`);
    double.succeed(created.providerPaymentId);
    expect((await provider.verifyNotification(forged)).eventId).toBe(`${created.providerPaymentId}:succeeded`);
  });

  it("refuses notifications that are malformed or name an unknown payment, and ignores non-payment events", async () => {
    await expect(provider.verifyNotification("not json")).rejects.toBeInstanceOf(NotificationRefusedError);
    await expect(provider.verifyNotification(JSON.stringify({ type: "notification", event: "payment.succeeded" }))).rejects.toBeInstanceOf(NotificationRefusedError);
    await expect(
      provider.verifyNotification(JSON.stringify({ type: "notification", event: "payment.succeeded", object: { id: "00000000-0000-0000-0000-000000000000" } })),
    ).rejects.toBeInstanceOf(NotificationRefusedError);
    expect((await provider.verifyNotification(JSON.stringify({ type: "notification", event: "refund.succeeded", object: { id: "r1" } }))).payment).toBeNull();
  });

  it("reports a timeout and a 5xx as an outage, a 4xx as a refusal", async () => {
    double.failNextCreates("hang");
    const started = Date.now();
    await expect(provider.create(request())).rejects.toBeInstanceOf(ProviderUnavailableError);
    // Gives up after its own time limit rather than hanging with the provider.
    expect(Date.now() - started).toBeLessThan(PROVIDER_TIMEOUT_MS + 7_000);
    double.failNextCreates("500");
    await expect(provider.create(request())).rejects.toBeInstanceOf(ProviderUnavailableError);
    const wrongKey = new YooKassaPaymentProvider({ shopId: double.shopId, secretKey: "wrong", apiUrl: double.apiUrl, timeoutMs: PROVIDER_TIMEOUT_MS });
    await expect(wrongKey.create(request())).rejects.toBeInstanceOf(ProviderRefusedError);
  });

  it("returns the payment created before a lost answer when retried with its key", async () => {
    const sent = request();
    double.failNextCreates("hang_after_create");
    await expect(provider.create(sent)).rejects.toBeInstanceOf(ProviderUnavailableError);
    const retried = await provider.create(sent);
    expect([...double.payments.values()].filter((payment) => payment.id === retried.providerPaymentId)).toHaveLength(1);
    expect(double.requests.filter((entry) => entry.idempotenceKey === sent.idempotenceKey)).toHaveLength(2);
  });
});

describe("Stripe provider (official package) against the Stripe double", () => {
  let double: StripeDouble;
  let provider: StripePaymentProvider;
  const euro = (overrides: Partial<PaymentRequest> = {}) =>
    request({
      currency: "eur",
      amount: 18_200,
      lines: [
        { description: "Three-layer aligners for Keller M.", quantity: 2, price: 1_490 },
        { description: "Hard matrices for Keller M.", quantity: 1, price: 1_490 },
        { description: "Packaging and delivery", quantity: 1, price: 1_500 },
        { description: "Service fee", quantity: 1, price: 12_230 },
      ],
      ...overrides,
    });

  beforeAll(async () => {
    double = await startStripeDouble();
    provider = new StripePaymentProvider({ secretKey: double.secretKey, webhookSecret: double.webhookSecret, apiUrl: double.url, timeoutMs: PROVIDER_TIMEOUT_MS });
  });
  afterAll(async () => {
    await double?.close();
  });

  it("creates a Checkout Session with the lines, the order in its metadata and the session id in the return URL", async () => {
    const sent = euro();
    const created = await provider.create(sent);
    const session = double.sessions.get(created.providerPaymentId)!;
    expect(created).toEqual({ providerPaymentId: session.id, confirmationUrl: session.url, status: "pending" });
    expect(session.amount_total).toBe(18_200);
    expect(session.currency).toBe("eur");
    expect(session.line_items_sent.map((item) => [item.price_data.product_data.name, item.quantity, item.price_data.unit_amount])).toEqual([
      ["Three-layer aligners for Keller M.", 2, 1_490],
      ["Hard matrices for Keller M.", 1, 1_490],
      ["Packaging and delivery", 1, 1_500],
      ["Service fee", 1, 12_230],
    ]);
    expect(session.metadata.orderId).toBe(ORDER_ID);
    expect(session.client_reference_id).toBe(ORDER_ID);
    expect(session.success_url).toBe(`${sent.returnUrl}&paymentId={CHECKOUT_SESSION_ID}`);
    expect(session.cancel_url).toBe(sent.cancelUrl);
    expect(double.requests.at(-1)?.idempotencyKey).toBe(sent.idempotenceKey);
    expect((await provider.create(sent)).providerPaymentId).toBe(session.id);
  });

  it("reads a session as pending, succeeded once paid, canceled once expired", async () => {
    const paid = await provider.create(euro());
    expect(await provider.fetch(paid.providerPaymentId)).toEqual({
      providerPaymentId: paid.providerPaymentId,
      status: "pending",
      amount: 18_200,
      currency: "eur",
      orderId: ORDER_ID,
      payer: { vatNumber: null, businessName: null, invoiceId: null },
    });
    double.complete(paid.providerPaymentId);
    expect((await provider.fetch(paid.providerPaymentId))?.status).toBe("succeeded");
    const expired = await provider.create(euro());
    double.expire(expired.providerPaymentId);
    expect((await provider.fetch(expired.providerPaymentId))?.status).toBe("canceled");
    expect(await provider.fetch("cs_test_missing")).toBeNull();
  });

  it("accepts a correctly signed checkout.session.completed and refuses a bad or missing signature", async () => {
    const created = await provider.create(euro());
    const completed = double.complete(created.providerPaymentId, { businessName: "Studio Dentistico Bianchi", vatNumber: "IT12345678901", country: "IT" });
    const { id, payload } = double.event("checkout.session.completed", created.providerPaymentId);
    const good = await provider.verifyNotification(payload, new Headers({ "Stripe-Signature": stripeSignature(payload, double.webhookSecret) }));
    expect(good).toEqual({
      eventId: id,
      type: "checkout.session.completed",
      payment: {
        providerPaymentId: created.providerPaymentId,
        status: "succeeded",
        amount: 18_200,
        currency: "eur",
        orderId: ORDER_ID,
        // The clinic's VAT number and business name from Checkout's tax ID collection, and Stripe's invoice.
        payer: { vatNumber: "IT12345678901", businessName: "Studio Dentistico Bianchi", invoiceId: completed.invoice },
      },
    });
    expect(completed.invoice).toMatch(/^in_/);
    await expect(provider.verifyNotification(payload, new Headers({ "Stripe-Signature": stripeSignature(payload, "whsec_wrong") }))).rejects.toBeInstanceOf(NotificationRefusedError);
    await expect(provider.verifyNotification(payload.replace("18200", "1"), new Headers({ "Stripe-Signature": stripeSignature(payload, double.webhookSecret) }))).rejects.toBeInstanceOf(
      NotificationRefusedError,
    );
    await expect(provider.verifyNotification(payload, new Headers())).rejects.toBeInstanceOf(NotificationRefusedError);
    const old = Math.floor(Date.now() / 1000) - 3600;
    await expect(provider.verifyNotification(payload, new Headers({ "Stripe-Signature": stripeSignature(payload, double.webhookSecret, old) }))).rejects.toBeInstanceOf(NotificationRefusedError);
  });

  it("turns an expired session into a canceled payment and ignores events about other objects", async () => {
    const created = await provider.create(euro());
    double.expire(created.providerPaymentId);
    const { payload } = double.event("checkout.session.expired", created.providerPaymentId);
    expect((await provider.verifyNotification(payload, new Headers({ "Stripe-Signature": stripeSignature(payload, double.webhookSecret) }))).payment?.status).toBe("canceled");
    const other = JSON.stringify({ id: "evt_other", object: "event", type: "customer.created", data: { object: { id: "cus_1", object: "customer" } } });
    expect((await provider.verifyNotification(other, new Headers({ "Stripe-Signature": stripeSignature(other, double.webhookSecret) }))).payment).toBeNull();
  });

  it("reports a timeout and a 5xx as an outage, a bad key as a refusal", async () => {
    double.failNextCreates("hang");
    await expect(provider.create(euro())).rejects.toBeInstanceOf(ProviderUnavailableError);
    double.failNextCreates("500");
    await expect(provider.create(euro())).rejects.toBeInstanceOf(ProviderUnavailableError);
    const wrongKey = new StripePaymentProvider({ secretKey: "sk_test_wrong", webhookSecret: double.webhookSecret, apiUrl: double.url, timeoutMs: PROVIDER_TIMEOUT_MS });
    await expect(wrongKey.create(euro())).rejects.toBeInstanceOf(ProviderRefusedError);
  });
});
