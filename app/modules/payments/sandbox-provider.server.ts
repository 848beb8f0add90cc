import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { DB } from "~/modules/db/db.server";
import {
  assertPaymentRequest,
  type CreatedPayment,
  NotificationRefusedError,
  type PaymentProvider,
  type PaymentRequest,
  type VerifiedNotification,
  type VerifiedPayment,
} from "./provider";

/**
 * The development payment provider: a local test checkout page (`/payment/sandbox/{id}`), clearly
 * marked as test, that never exists in strict mode. It behaves like a remote provider: its own status
 * store (`sandbox.payments`, apart from our `payments` rows), idempotent creation, and a signed
 * notification to `/api/webhooks/sandbox` handled like YooKassa's (the payment is read again from
 * the store, never taken from the notification).
 */

export const SANDBOX_SIGNATURE_HEADER = "x-sandbox-signature";

export type SandboxOutcome = "pay" | "decline";

export class SandboxPaymentProvider implements PaymentProvider {
  readonly id = "sandbox" as const;

  /** `signingSecret` signs notifications (derived from SESSION_SECRET by the service). */
  constructor(
    private readonly db: DB,
    private readonly signingSecret: string,
  ) {}

  async create(request: PaymentRequest): Promise<CreatedPayment> {
    assertPaymentRequest(request);
    await this.db
      .insertInto("sandbox.payments")
      .values({
        id: `sbx_${randomBytes(12).toString("hex")}`,
        idempotence_key: request.idempotenceKey,
        order_id: request.orderId,
        amount: request.amount,
        currency: request.currency,
        description: request.description,
        return_url: request.returnUrl,
        lines: JSON.stringify(request.lines),
      })
      .onConflict((oc) => oc.column("idempotence_key").doNothing())
      .execute();
    // The same key answers with the payment created first, as real providers do.
    const row = await this.db.selectFrom("sandbox.payments").select(["id", "status"]).where("idempotence_key", "=", request.idempotenceKey).executeTakeFirstOrThrow();
    return { providerPaymentId: row.id, confirmationUrl: `/payment/sandbox/${row.id}`, status: row.status };
  }

  async fetch(providerPaymentId: string): Promise<VerifiedPayment | null> {
    const row = await this.db
      .selectFrom("sandbox.payments")
      .select(["id", "status", "amount", "currency", "order_id"])
      .where("id", "=", providerPaymentId)
      .executeTakeFirst();
    if (!row) return null;
    return { providerPaymentId: row.id, status: row.status, amount: Number(row.amount), currency: row.currency, orderId: row.order_id };
  }

  /** What the checkout page shows. */
  async checkout(providerPaymentId: string) {
    return this.db.selectFrom("sandbox.payments").selectAll().where("id", "=", providerPaymentId).executeTakeFirst();
  }

  /** The customer's choice on the checkout page; only an open payment changes. */
  async decide(providerPaymentId: string, outcome: SandboxOutcome): Promise<boolean> {
    const result = await this.db
      .updateTable("sandbox.payments")
      .set({ status: outcome === "pay" ? "succeeded" : "canceled", updated_at: new Date() })
      .where("id", "=", providerPaymentId)
      .where("status", "=", "pending")
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  private sign(body: string) {
    return createHmac("sha256", this.signingSecret).update(body).digest("hex");
  }

  /** The notification the sandbox sends after a decision: body and headers, as a webhook receives them. */
  notification(providerPaymentId: string, event: "payment.succeeded" | "payment.canceled"): { body: string; headers: Headers } {
    const body = JSON.stringify({ type: "notification", event, object: { id: providerPaymentId } });
    return { body, headers: new Headers({ "Content-Type": "application/json", [SANDBOX_SIGNATURE_HEADER]: this.sign(body) }) };
  }

  async verifyNotification(rawBody: string, headers: Headers): Promise<VerifiedNotification> {
    const signature = headers.get(SANDBOX_SIGNATURE_HEADER) ?? "";
    const expected = this.sign(rawBody);
    if (signature.length !== expected.length || !timingSafeEqual(Buffer.from(signature), Buffer.from(expected))) {
      throw new NotificationRefusedError("sandbox notification signature refused");
    }
    let body: { event?: unknown; object?: { id?: unknown } };
    try {
      body = JSON.parse(rawBody);
    } catch {
      throw new NotificationRefusedError("sandbox notification is not JSON");
    }
    if (typeof body.event !== "string" || typeof body.object?.id !== "string") throw new NotificationRefusedError("sandbox notification without event or payment id");
    const payment = await this.fetch(body.object.id);
    if (!payment) throw new NotificationRefusedError(`the sandbox knows no payment ${body.object.id}`);
    return { eventId: `${payment.providerPaymentId}:${payment.status}`, type: body.event, payment };
  }
}
