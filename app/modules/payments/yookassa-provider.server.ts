import type { Currency, PaymentReceipt, PaymentStatus } from "~db/schema";
import type { PaymentLine } from "~/modules/pricing/payment-lines";
import {
  assertPaymentRequest,
  type CreatedPayment,
  decimalToMinor,
  MissingConfirmationUrlError,
  minorToDecimal,
  NotificationRefusedError,
  type PaymentProvider,
  type PaymentRequest,
  ProviderRefusedError,
  ProviderUnavailableError,
  type VerifiedNotification,
  type VerifiedPayment,
} from "./provider";

/**
 * YooKassa (domestic market, RUB) over its REST API v3: Basic auth with the shop id and secret key,
 * an `Idempotence-Key` per attempt (a retry with the same key returns the same payment),
 * `confirmation.type = redirect`, and receipt items built from the payment lines.
 * Notifications are never trusted as sent: the payment is fetched again with GET /payments/{id}.
 */

export interface YooKassaSettings {
  shopId: string;
  secretKey: string;
  /** e.g. https://api.yookassa.ru/v3 */
  apiUrl: string;
  timeoutMs: number;
}

/** The parts of YooKassa's payment object the app reads. */
interface YooKassaPayment {
  id: string;
  status: "pending" | "waiting_for_capture" | "succeeded" | "canceled";
  amount: { value: string; currency: string };
  confirmation?: { type: string; confirmation_url?: string };
  metadata?: Record<string, string> | null;
  /** Whether the receipt sent with the payment has been registered with the tax service. */
  receipt_registration?: "pending" | "succeeded" | "canceled";
}

/** The parts of YooKassa's receipt object (GET /receipts?payment_id=…) the app keeps. */
interface YooKassaReceipt {
  status?: string;
  fiscal_document_number?: string;
  fiscal_storage_number?: string;
  fiscal_attribute?: string;
  registered_at?: string;
}

/** YooKassa limits: 128 characters for descriptions, at most 100 receipt items. */
const MAX_TEXT = 128;
const MAX_RECEIPT_ITEMS = 100;
/** "Без НДС" (vat_code 1): the receipt's VAT rate for every item. */
const VAT_CODE = 1;

const STATUS: Record<YooKassaPayment["status"], PaymentStatus> = {
  pending: "pending",
  // Payments are created with capture: true, so this state is passed through quickly.
  waiting_for_capture: "pending",
  succeeded: "succeeded",
  canceled: "canceled",
};

const clip = (text: string) => (text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT - 1)}…` : text);

/** Receipt items: one per payment line; more than YooKassa allows become one line for the order. */
function receiptItems(request: PaymentRequest) {
  const lines: PaymentLine[] = request.lines.length > MAX_RECEIPT_ITEMS ? [{ description: request.description, quantity: 1, price: request.amount }] : request.lines;
  return lines.map((line) => ({
    description: clip(line.description),
    quantity: line.quantity.toFixed(2),
    amount: { value: minorToDecimal(line.price), currency: request.currency.toUpperCase() },
    vat_code: VAT_CODE,
    payment_subject: "commodity",
    payment_mode: "full_payment",
  }));
}

function receiptCustomer(customer: PaymentRequest["customer"]) {
  const phone = customer.phone?.replace(/\D/g, "") ?? "";
  return {
    ...(customer.fullName ? { full_name: clip(customer.fullName) } : {}),
    ...(customer.email ? { email: customer.email } : {}),
    ...(!customer.email && phone ? { phone } : {}),
  };
}

export class YooKassaPaymentProvider implements PaymentProvider {
  readonly id = "yookassa" as const;

  constructor(private readonly settings: YooKassaSettings) {}

  private async call(method: "GET" | "POST", path: string, body?: unknown, idempotenceKey?: string): Promise<YooKassaPayment> {
    const auth = Buffer.from(`${this.settings.shopId}:${this.settings.secretKey}`).toString("base64");
    let response: Response;
    try {
      response = await fetch(`${this.settings.apiUrl.replace(/\/$/, "")}${path}`, {
        method,
        headers: {
          Authorization: `Basic ${auth}`,
          Accept: "application/json",
          ...(body ? { "Content-Type": "application/json" } : {}),
          ...(idempotenceKey ? { "Idempotence-Key": idempotenceKey } : {}),
        },
        body: body ? JSON.stringify(body) : undefined,
        signal: AbortSignal.timeout(this.settings.timeoutMs),
      });
    } catch (error) {
      throw new ProviderUnavailableError(`YooKassa ${method} ${path} did not answer: ${(error as Error).message}`, { cause: error });
    }
    const text = await response.text().catch(() => "");
    if (response.status >= 500 || response.status === 429) throw new ProviderUnavailableError(`YooKassa ${method} ${path} answered ${response.status}`);
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new ProviderUnavailableError(`YooKassa ${method} ${path} answered ${response.status} without JSON`);
    }
    if (!response.ok) {
      const error = json as { code?: string; description?: string };
      throw new ProviderRefusedError(`YooKassa refused ${method} ${path} (${response.status} ${error.code ?? ""}): ${error.description ?? text.slice(0, 200)}`);
    }
    const payment = json as YooKassaPayment;
    if (typeof payment?.id !== "string" || !(payment.status in STATUS) || typeof payment.amount?.value !== "string") {
      throw new ProviderUnavailableError(`YooKassa ${method} ${path} answered with an unexpected payment object`);
    }
    return payment;
  }

  private verified(payment: YooKassaPayment): VerifiedPayment {
    const amount = decimalToMinor(payment.amount.value);
    const currency = payment.amount.currency.toLowerCase();
    return {
      providerPaymentId: payment.id,
      status: STATUS[payment.status],
      // A malformed amount never matches an order.
      amount: amount ?? -1,
      currency: (currency === "rub" || currency === "eur" ? currency : "rub") as Currency,
      orderId: payment.metadata?.orderId ?? null,
    };
  }

  async create(request: PaymentRequest): Promise<CreatedPayment> {
    assertPaymentRequest(request);
    const payment = await this.call(
      "POST",
      "/payments",
      {
        amount: { value: minorToDecimal(request.amount), currency: request.currency.toUpperCase() },
        capture: true,
        confirmation: { type: "redirect", return_url: request.returnUrl },
        description: clip(request.description),
        metadata: {
          orderId: request.orderId,
          ...(request.discountPercent ? { discountPercentage: String(request.discountPercent) } : {}),
        },
        receipt: { customer: receiptCustomer(request.customer), items: receiptItems(request) },
      },
      request.idempotenceKey,
    );
    const url = payment.confirmation?.confirmation_url;
    if (!url) throw new MissingConfirmationUrlError(`YooKassa payment ${payment.id} came without a confirmation_url`);
    return { providerPaymentId: payment.id, confirmationUrl: url, status: STATUS[payment.status] };
  }

  async fetch(providerPaymentId: string): Promise<VerifiedPayment | null> {
    let payment: YooKassaPayment;
    try {
      payment = await this.call("GET", `/payments/${encodeURIComponent(providerPaymentId)}`);
    } catch (error) {
      if (error instanceof ProviderRefusedError) return null;
      throw error;
    }
    const verified = this.verified(payment);
    return payment.receipt_registration ? { ...verified, receipt: await this.receiptOf(payment) } : verified;
  }

  /**
   * The receipt of a payment (ADR 070): its registration state, and once registered, its fiscal data
   * from the receipts list. A receipt that cannot be read never holds up the payment: only the state is kept.
   */
  private async receiptOf(payment: YooKassaPayment): Promise<PaymentReceipt> {
    const registration = payment.receipt_registration ?? null;
    if (registration !== "succeeded") return { registration };
    const auth = Buffer.from(`${this.settings.shopId}:${this.settings.secretKey}`).toString("base64");
    try {
      const response = await fetch(`${this.settings.apiUrl.replace(/\/$/, "")}/receipts?${new URLSearchParams({ payment_id: payment.id })}`, {
        headers: { Authorization: `Basic ${auth}`, Accept: "application/json" },
        signal: AbortSignal.timeout(this.settings.timeoutMs),
      });
      if (!response.ok) return { registration };
      const list = (await response.json()) as { items?: YooKassaReceipt[] };
      const receipt = list.items?.find((item) => item.status === "succeeded") ?? list.items?.[0];
      if (!receipt) return { registration };
      const text = (value: unknown) => (typeof value === "string" && value.length <= 64 ? value : null);
      return {
        registration,
        fiscalDocumentNumber: text(receipt.fiscal_document_number),
        fiscalStorageNumber: text(receipt.fiscal_storage_number),
        fiscalAttribute: text(receipt.fiscal_attribute),
        registeredAt: text(receipt.registered_at),
      };
    } catch {
      return { registration };
    }
  }

  /**
   * A notification is `{type: "notification", event, object}`. Only its payment id is taken from it;
   * the payment itself (status, amount, order) comes from YooKassa's API.
   */
  async verifyNotification(rawBody: string): Promise<VerifiedNotification> {
    let body: { type?: unknown; event?: unknown; object?: { id?: unknown } };
    try {
      body = JSON.parse(rawBody);
    } catch {
      throw new NotificationRefusedError("YooKassa notification is not JSON");
    }
    if (body?.type !== "notification" || typeof body.event !== "string" || typeof body.object?.id !== "string") {
      throw new NotificationRefusedError("YooKassa notification without type, event or object id");
    }
    if (!body.event.startsWith("payment.")) return { eventId: `${body.event}:${body.object.id}`, type: body.event, payment: null };
    const payment = await this.fetch(body.object.id);
    if (!payment) throw new NotificationRefusedError(`YooKassa knows no payment ${body.object.id}`);
    // YooKassa's notifications carry no id of their own. The event is named by the state fetched, so
    // a forged "succeeded" for a pending payment cannot use up the real notification's id later.
    return { eventId: `${payment.providerPaymentId}:${payment.status}`, type: body.event, payment };
  }
}
