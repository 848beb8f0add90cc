import type { Currency, PaymentProviderId, PaymentReceipt, PaymentStatus } from "~db/schema";
import type { Language } from "~/modules/i18n/languages";
import type { PaymentLine } from "~/modules/pricing/payment-lines";

/** One interface for YooKassa, Stripe and the sandbox (DESIGN §4.19–4.20). Amounts in minor units. */

export interface PaymentRequest {
  orderId: string;
  amount: number;
  currency: Currency;
  /** "Aligner order №" + the first 6 characters of the order id, in the order's language. */
  description: string;
  /** The order's language: the provider's own page speaks it where the provider can (Stripe). */
  language?: Language;
  lines: PaymentLine[];
  customer: { fullName: string | null; email: string | null; phone: string | null };
  /** Where the provider sends the customer back: `/payment/success?orderId=…`. */
  returnUrl: string;
  /** Where a customer who leaves the provider's page without paying goes (the payment-link page). */
  cancelUrl: string;
  /** The same key for every retry of one attempt: the provider answers a retry with the same payment. */
  idempotenceKey: string;
  /** The order's discount percentage, for the provider's records. */
  discountPercent?: number | null;
}

export interface CreatedPayment {
  providerPaymentId: string;
  confirmationUrl: string;
  status: PaymentStatus;
}

/** What the provider itself says about a payment: the only source of "paid". */
export interface VerifiedPayment {
  providerPaymentId: string;
  status: PaymentStatus;
  amount: number;
  currency: Currency;
  orderId: string | null;
  /** The payer's business details and invoice, when the provider collected them (Stripe). */
  payer?: PayerDetails;
  /** The receipt as the provider reports it (YooKassa's fiscal data, Stripe's receipt or invoice page). */
  receipt?: PaymentReceipt;
}

/** What a clinic gave at checkout for its invoice: VAT number and business name, and the provider's invoice. */
export interface PayerDetails {
  vatNumber: string | null;
  businessName: string | null;
  invoiceId: string | null;
}

/**
 * A provider notification after verification: its signature checked (Stripe, sandbox) or the payment
 * fetched again from the provider's API (YooKassa, sandbox). `payment` is null for an event that
 * concerns no payment of ours (acknowledged and ignored).
 */
export interface VerifiedNotification {
  /** Unique per event and provider: replays of one event carry the same id. */
  eventId: string;
  type: string;
  payment: VerifiedPayment | null;
}

export interface PaymentProvider {
  readonly id: PaymentProviderId;
  create(request: PaymentRequest): Promise<CreatedPayment>;
  fetch(providerPaymentId: string): Promise<VerifiedPayment | null>;
  /** Turns a webhook request (raw body, headers) into a verified event, or throws NotificationRefusedError. */
  verifyNotification(rawBody: string, headers: Headers): Promise<VerifiedNotification>;
}

/** The provider could not be reached or failed (timeout, network error, 5xx): try again later, same key. */
export class ProviderUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "ProviderUnavailableError";
  }
}

/** The provider answered without a page to send the customer to; a retry with the same key may get it. */
export class MissingConfirmationUrlError extends ProviderUnavailableError {
  constructor(message: string) {
    super(message);
    this.name = "MissingConfirmationUrlError";
  }
}

/** The provider answered and refused the request (4xx): retrying the same request will not help. */
export class ProviderRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ProviderRefusedError";
  }
}

/** A notification that is not what it claims (bad signature, malformed, unknown payment): HTTP 400. */
export class NotificationRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "NotificationRefusedError";
  }
}

/** Minor units as a decimal string with two places: 1050000 → "10500.00". */
export function minorToDecimal(amount: number): string {
  const sign = amount < 0 ? "-" : "";
  const abs = Math.abs(amount);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, "0")}`;
}

/** A decimal string with at most two places as minor units: "10500.00" → 1050000; null when malformed. */
export function decimalToMinor(value: string): number | null {
  const match = /^(\d+)(?:\.(\d{1,2}))?$/.exec(value.trim());
  if (!match) return null;
  return Number(match[1]) * 100 + Number((match[2] ?? "0").padEnd(2, "0"));
}

/** Payment lines must add up to the amount charged (DESIGN §4.11). */
export function linesTotal(lines: readonly PaymentLine[]): number {
  return lines.reduce((sum, line) => sum + line.price * line.quantity, 0);
}

export class PaymentRequestError extends Error {}

export function assertPaymentRequest(request: PaymentRequest) {
  if (!Number.isInteger(request.amount) || request.amount <= 0) throw new PaymentRequestError("amount must be a positive integer of minor units");
  if (linesTotal(request.lines) !== request.amount) throw new PaymentRequestError("payment lines do not add up to the amount");
}
