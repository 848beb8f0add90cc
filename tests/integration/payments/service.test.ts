import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Order } from "~db/schema";
import { type AppConfig, loadConfig } from "~/modules/config/config.server";
import type { DB } from "~/modules/db/db.server";
import { changeOrderStatus, createOrder, findOrder, orderHistory } from "~/modules/orders/orders.server";
import { paymentResultPath } from "~/modules/payments/payment-links.server";
import { startPayment, type StartPaymentResult } from "~/modules/payments/payments.server";
import { sandboxProvider } from "~/modules/payments/provider-choice.server";
import { handleNotification, reconcileOrder, refreshPendingPayments } from "~/modules/payments/reconciliation.server";
import { createTestDatabase, type TestDatabase } from "../../support/database";
import { startStripeDouble, stripeSignature, type StripeDouble, stripeAppEnv } from "../../support/stripe-double";
import { startYooKassaDouble, type YooKassaDouble, yooKassaAppEnv } from "../../support/yookassa-double";
import { SECRETS } from "../../support/app";

/** The payment service on a real database, with the sandbox and the YooKassa and Stripe doubles. */

const ORIGIN = "http://shop.test";

function configFor(env: Record<string, string>): AppConfig {
  return loadConfig({ APP_ENV: "test", DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), "aligner-pay-")), PAYMENT_TIMEOUT_MS: "700", ...SECRETS, ...env });
}

async function pendingOrder(db: DB, market: "domestic" | "international", total: number): Promise<Order> {
  const order = await createOrder(
    db,
    { market, currency: market === "domestic" ? "rub" : "eur", email: `doctor-${Math.random().toString(36).slice(2, 8)}@clinic.ru`, fullName: "Иванова Анна", phone: "+7 900 000-00-01" },
    { kind: "customer", label: "test" },
  );
  await db.updateTable("orders").set({ total_cost: total }).where("id", "=", order.id).execute();
  await changeOrderStatus(db, order.id, "pending", { kind: "customer", label: "test" });
  return (await findOrder(db, order.id))!;
}

const lines = (total: number) => [
  { description: "Элайнеры 1-слойные для Смирнова Е.", quantity: 10, price: (total - 150_000) / 10 },
  { description: "Упаковка и доставка", quantity: 1, price: 150_000 },
];

/** The sandbox payment id at the end of a checkout URL. */
function checkoutId(result: StartPaymentResult): string {
  if (!result.ok) throw new Error(`payment not started: ${result.reason}`);
  return result.redirectTo.split("/").at(-1)!;
}

const statusOf = async (db: DB, orderId: string) => (await findOrder(db, orderId))!.status;
const attemptsOf = (db: DB, orderId: string) => db.selectFrom("payments").selectAll().where("order_id", "=", orderId).orderBy("created_at").execute();
const paidChanges = async (db: DB, orderId: string) => (await orderHistory(db, orderId)).filter((entry) => entry.to_status === "paid").length;

describe("the payment service", () => {
  let t: TestDatabase;
  let yookassa: YooKassaDouble;
  let stripe: StripeDouble;
  let sandboxOnly: AppConfig;
  let real: AppConfig;

  beforeAll(async () => {
    t = await createTestDatabase(4);
    yookassa = await startYooKassaDouble();
    stripe = await startStripeDouble();
    sandboxOnly = configFor({});
    real = configFor({
      ...yooKassaAppEnv(yookassa),
      ...stripeAppEnv(stripe),
    });
  });
  afterAll(async () => {
    await yookassa?.close();
    await stripe?.close();
    await t?.drop();
  });

  describe("with the sandbox", () => {
    it("creates one open attempt, reuses it while it is open, and a new one after a decline", async () => {
      const order = await pendingOrder(t.db, "domestic", 1_050_000);
      const first = await startPayment(t.db, sandboxOnly, { order, lines: lines(1_050_000), origin: ORIGIN });
      expect(first).toMatchObject({ ok: true, redirectTo: expect.stringMatching(/^\/payment\/sandbox\/sbx_[0-9a-f]{24}$/) });
      const again = await startPayment(t.db, sandboxOnly, { order, lines: lines(1_050_000), origin: ORIGIN });
      expect(again).toEqual(first);
      const [attempt] = await attemptsOf(t.db, order.id);
      expect(attempt).toMatchObject({ provider: "sandbox", status: "pending", amount: 1_050_000, lines: lines(1_050_000) });
      const sandbox = sandboxProvider(sandboxOnly, t.db)!;
      const stored = await sandbox.checkout(attempt!.provider_payment_id!);
      expect(stored).toMatchObject({ order_id: order.id, amount: 1_050_000, status: "pending", return_url: `${ORIGIN}${paymentResultPath(sandboxOnly, order.id)}` });

      expect(await sandbox.decide(attempt!.provider_payment_id!, "decline")).toBe(true);
      const declined = sandbox.notification(attempt!.provider_payment_id!, "payment.canceled");
      expect(await handleNotification(t.db, sandboxOnly, "sandbox", declined.body, declined.headers)).toEqual({ status: 200, outcome: "failed" });
      expect(await statusOf(t.db, order.id)).toBe("pending");
      expect(await reconcileOrder(t.db, sandboxOnly, (await findOrder(t.db, order.id))!)).toBe("failed");

      const retry = await startPayment(t.db, sandboxOnly, { order, lines: lines(1_050_000), origin: ORIGIN });
      expect(retry.ok && retry.redirectTo).not.toBe(first.ok && first.redirectTo);
      expect((await attemptsOf(t.db, order.id)).map((row) => row.status)).toEqual(["canceled", "pending"]);
    });

    it("marks paid once on the sandbox's signed notification; a replay changes nothing", async () => {
      const order = await pendingOrder(t.db, "domestic", 1_050_000);
      const started = await startPayment(t.db, sandboxOnly, { order, lines: lines(1_050_000), origin: ORIGIN });
      const paymentId = checkoutId(started);
      const sandbox = sandboxProvider(sandboxOnly, t.db)!;
      await sandbox.decide(paymentId, "pay");
      const notification = sandbox.notification(paymentId, "payment.succeeded");
      expect(await handleNotification(t.db, sandboxOnly, "sandbox", notification.body, notification.headers)).toEqual({ status: 200, outcome: "paid" });
      const paid = (await findOrder(t.db, order.id))!;
      expect(paid.status).toBe("paid");
      expect(await handleNotification(t.db, sandboxOnly, "sandbox", notification.body, notification.headers)).toEqual({ status: 200, outcome: "duplicate" });
      expect((await findOrder(t.db, order.id))!.updated_at).toEqual(paid.updated_at);
      expect(await paidChanges(t.db, order.id)).toBe(1);
      const events = await t.db.selectFrom("payment_events").selectAll().where("provider", "=", "sandbox").where("event_id", "=", `${paymentId}:succeeded`).execute();
      expect(events).toHaveLength(1);

      const forged = new Headers(notification.headers);
      forged.set("x-sandbox-signature", "0".repeat(64));
      expect(await handleNotification(t.db, sandboxOnly, "sandbox", notification.body, forged)).toEqual({ status: 400, outcome: "refused" });
    });

    it("does not mark paid from the return page while the payment is unpaid, nor for another order's payment", async () => {
      const order = await pendingOrder(t.db, "domestic", 1_050_000);
      const other = await pendingOrder(t.db, "domestic", 1_050_000);
      const started = await startPayment(t.db, sandboxOnly, { order, lines: lines(1_050_000), origin: ORIGIN });
      const otherStarted = await startPayment(t.db, sandboxOnly, { order: other, lines: lines(1_050_000), origin: ORIGIN });
      const paymentId = checkoutId(started);
      const otherPaymentId = checkoutId(otherStarted);
      expect(await reconcileOrder(t.db, sandboxOnly, order, { paymentId })).toBe("waiting");
      await sandboxProvider(sandboxOnly, t.db)!.decide(otherPaymentId, "pay");
      expect(await reconcileOrder(t.db, sandboxOnly, order, { paymentId: otherPaymentId })).toBe("waiting");
      expect(await statusOf(t.db, order.id)).toBe("pending");
      expect(await reconcileOrder(t.db, sandboxOnly, other, { paymentId: otherPaymentId })).toBe("paid");
      expect(await statusOf(t.db, other.id)).toBe("paid");
    });

    it("reports a payment that succeeded for an order no longer pending as a failed status update", async () => {
      const order = await pendingOrder(t.db, "domestic", 1_050_000);
      const started = await startPayment(t.db, sandboxOnly, { order, lines: lines(1_050_000), origin: ORIGIN });
      await sandboxProvider(sandboxOnly, t.db)!.decide(checkoutId(started), "pay");
      await changeOrderStatus(t.db, order.id, "draft", { kind: "customer", label: "test" });
      expect(await reconcileOrder(t.db, sandboxOnly, (await findOrder(t.db, order.id))!)).toBe("update_failed");
      expect(await statusOf(t.db, order.id)).toBe("draft");
    });
  });

  describe("with YooKassa", () => {
    it("leaves the order pending on a timeout and retries with the same idempotence key", async () => {
      const order = await pendingOrder(t.db, "domestic", 1_050_000);
      yookassa.failNextCreates("hang_after_create");
      expect(await startPayment(t.db, real, { order, lines: lines(1_050_000), origin: ORIGIN })).toEqual({ ok: false, reason: "unavailable" });
      expect(await statusOf(t.db, order.id)).toBe("pending");
      const [open] = await attemptsOf(t.db, order.id);
      expect(open).toMatchObject({ provider: "yookassa", status: "created", provider_payment_id: null, last_error: expect.stringContaining("did not answer") });

      const retry = await startPayment(t.db, real, { order, lines: lines(1_050_000), origin: ORIGIN });
      expect(retry).toMatchObject({ ok: true, redirectTo: expect.stringContaining(`${yookassa.url}/checkout/`) });
      const attempts = await attemptsOf(t.db, order.id);
      expect(attempts).toHaveLength(1);
      expect(attempts[0]).toMatchObject({ status: "pending", idempotence_key: open!.idempotence_key, last_error: null });
      expect(yookassa.requests.filter((request) => request.idempotenceKey === open!.idempotence_key)).toHaveLength(2);
      expect([...yookassa.payments.values()].filter((payment) => payment.metadata.orderId === order.id)).toHaveLength(1);
      expect((await findOrder(t.db, order.id))!.payment_id).toBe(attempts[0]!.provider_payment_id);
    });

    it("closes an attempt YooKassa refuses, and the next press starts a new one", async () => {
      const order = await pendingOrder(t.db, "domestic", 1_050_000);
      yookassa.failNextCreates("400");
      expect(await startPayment(t.db, real, { order, lines: lines(1_050_000), origin: ORIGIN })).toEqual({ ok: false, reason: "refused" });
      expect(await attemptsOf(t.db, order.id)).toMatchObject([{ status: "failed", last_error: expect.stringContaining("Payment method is not available") }]);
      expect(await statusOf(t.db, order.id)).toBe("pending");
      expect(await startPayment(t.db, real, { order, lines: lines(1_050_000), origin: ORIGIN })).toMatchObject({ ok: true });
      expect((await attemptsOf(t.db, order.id)).map((row) => row.status)).toEqual(["failed", "pending"]);
    });

    it("refuses a notification whose payment amount differs from the order's, and changes nothing", async () => {
      const order = await pendingOrder(t.db, "domestic", 1_050_000);
      await startPayment(t.db, real, { order, lines: lines(1_050_000), origin: ORIGIN });
      const [attempt] = await attemptsOf(t.db, order.id);
      yookassa.setAmount(attempt!.provider_payment_id!, "1.00");
      yookassa.succeed(attempt!.provider_payment_id!);
      const body = JSON.stringify({ type: "notification", event: "payment.succeeded", object: yookassa.payments.get(attempt!.provider_payment_id!) });
      expect(await handleNotification(t.db, real, "yookassa", body, new Headers())).toEqual({ status: 400, outcome: "mismatch" });
      expect(await statusOf(t.db, order.id)).toBe("pending");
      expect((await attemptsOf(t.db, order.id))[0]!.status).toBe("pending");
      expect(await t.db.selectFrom("payment_events").selectAll().where("payment_id", "=", attempt!.id).execute()).toEqual([]);
    });

    it("re-reads a notification from the API: a forged success changes nothing, the real one marks paid once", async () => {
      const order = await pendingOrder(t.db, "domestic", 1_050_000);
      await startPayment(t.db, real, { order, lines: lines(1_050_000), origin: ORIGIN });
      const [attempt] = await attemptsOf(t.db, order.id);
      const id = attempt!.provider_payment_id!;
      const forged = JSON.stringify({ type: "notification", event: "payment.succeeded", object: { id, status: "succeeded", amount: { value: "10500.00", currency: "RUB" } } });
      expect(await handleNotification(t.db, real, "yookassa", forged, new Headers())).toEqual({ status: 200, outcome: "waiting" });
      expect(await statusOf(t.db, order.id)).toBe("pending");
      yookassa.succeed(id);
      expect(await handleNotification(t.db, real, "yookassa", forged, new Headers())).toEqual({ status: 200, outcome: "paid" });
      expect(await handleNotification(t.db, real, "yookassa", forged, new Headers())).toEqual({ status: 200, outcome: "duplicate" });
      expect(await paidChanges(t.db, order.id)).toBe(1);
    });
  });

  describe("with Stripe", () => {
    it("refuses a bad signature, marks paid on a signed completion, and ignores its replay", async () => {
      const order = await pendingOrder(t.db, "international", 18_200);
      const started = await startPayment(t.db, real, {
        order,
        lines: [
          { description: "Three-layer aligners for Keller M.", quantity: 2, price: 1_490 },
          { description: "Packaging and delivery", quantity: 1, price: 15_220 },
        ],
        origin: ORIGIN,
      });
      expect(started).toMatchObject({ ok: true, redirectTo: expect.stringContaining(`${stripe.url}/c/pay/cs_test_`) });
      const [attempt] = await attemptsOf(t.db, order.id);
      expect(attempt).toMatchObject({ provider: "stripe", currency: "eur", amount: 18_200 });
      stripe.complete(attempt!.provider_payment_id!);
      const { payload } = stripe.event("checkout.session.completed", attempt!.provider_payment_id!);
      const signed = (secret: string) => new Headers({ "Stripe-Signature": stripeSignature(payload, secret) });
      expect(await handleNotification(t.db, real, "stripe", payload, signed("whsec_wrong"))).toEqual({ status: 400, outcome: "refused" });
      expect(await statusOf(t.db, order.id)).toBe("pending");
      expect(await handleNotification(t.db, real, "stripe", payload, signed(stripe.webhookSecret))).toEqual({ status: 200, outcome: "paid" });
      expect(await handleNotification(t.db, real, "stripe", payload, signed(stripe.webhookSecret))).toEqual({ status: 200, outcome: "duplicate" });
      expect(await paidChanges(t.db, order.id)).toBe(1);
    });
  });
});

describe("the back-office status refresh", () => {
  let t: TestDatabase;
  let yookassa: YooKassaDouble;
  let config: AppConfig;

  beforeAll(async () => {
    t = await createTestDatabase(4);
    yookassa = await startYooKassaDouble();
    config = configFor(yooKassaAppEnv(yookassa));
  });
  afterAll(async () => {
    await yookassa?.close();
    await t?.drop();
  });

  it("finds nothing to check when no order awaits payment", async () => {
    expect(await refreshPendingPayments(t.db, config)).toEqual({ checked: 0, paid: 0 });
  });

  it("marks exactly the pending orders whose payments succeeded", async () => {
    const make = async () => {
      const order = await pendingOrder(t.db, "domestic", 1_050_000);
      await startPayment(t.db, config, { order, lines: lines(1_050_000), origin: ORIGIN });
      const [attempt] = await attemptsOf(t.db, order.id);
      return { order, paymentId: attempt!.provider_payment_id! };
    };
    const succeeded = await make();
    const alsoSucceeded = await make();
    const open = await make();
    const canceled = await make();
    const mismatched = await make();
    const withoutAttempt = await pendingOrder(t.db, "domestic", 1_050_000);
    yookassa.succeed(succeeded.paymentId);
    yookassa.succeed(alsoSucceeded.paymentId);
    yookassa.cancel(canceled.paymentId);
    yookassa.setAmount(mismatched.paymentId, "10.00");
    yookassa.succeed(mismatched.paymentId);

    expect(await refreshPendingPayments(t.db, config)).toEqual({ checked: 6, paid: 2 });
    expect(await statusOf(t.db, succeeded.order.id)).toBe("paid");
    expect(await statusOf(t.db, alsoSucceeded.order.id)).toBe("paid");
    for (const order of [open.order, canceled.order, mismatched.order, withoutAttempt]) expect(await statusOf(t.db, order.id)).toBe("pending");
    expect((await attemptsOf(t.db, canceled.order.id))[0]!.status).toBe("canceled");

    expect(await refreshPendingPayments(t.db, config)).toEqual({ checked: 4, paid: 0 });
  });
});

