import Stripe from "stripe";
import type { Currency, PaymentStatus } from "~db/schema";
import {
  assertPaymentRequest,
  type CreatedPayment,
  MissingConfirmationUrlError,
  NotificationRefusedError,
  type PaymentProvider,
  type PayerDetails,
  type PaymentRequest,
  ProviderRefusedError,
  ProviderUnavailableError,
  type VerifiedNotification,
  type VerifiedPayment,
} from "./provider";

/**
 * Stripe (international market, EUR) with the official `stripe` package: a Checkout Session with
 * one line item per payment line and the order in its metadata. Webhooks are verified with the
 * `Stripe-Signature` header over the raw body; a session's events are the only ones acted upon.
 */

export interface StripeSettings {
  secretKey: string;
  webhookSecret: string;
  /** Stripe's API unless set (tests point it at a local double). */
  apiUrl?: string;
  timeoutMs: number;
}

type Session = Stripe.Checkout.Session;

/** Events about Checkout Sessions that change what we know about a payment. */
const SESSION_EVENTS = new Set([
  "checkout.session.completed",
  "checkout.session.async_payment_succeeded",
  "checkout.session.async_payment_failed",
  "checkout.session.expired",
]);

function sessionStatus(session: Session, eventType?: string): PaymentStatus {
  if (eventType === "checkout.session.async_payment_failed") return "failed";
  if (session.status === "expired") return "canceled";
  if (session.status === "complete" && (session.payment_status === "paid" || session.payment_status === "no_payment_required")) return "succeeded";
  return "pending";
}

/** The clinic's VAT number (an EU VAT id first), business name and invoice, as Checkout collected them. */
function payerOf(session: Session): PayerDetails {
  const taxIds = session.customer_details?.tax_ids ?? [];
  const taxId = taxIds.find((id) => id.type === "eu_vat" && id.value) ?? taxIds.find((id) => id.value);
  const invoice = typeof session.invoice === "string" ? session.invoice : (session.invoice?.id ?? null);
  return {
    vatNumber: taxId?.value ?? null,
    businessName: session.customer_details?.business_name ?? session.customer_details?.name ?? null,
    invoiceId: invoice,
  };
}

/**
 * The receipt's page (ADR 070): the paid invoice's page when Checkout made one, else the card
 * payment's receipt. Only a session retrieved with both expanded carries them; an event's does not.
 */
function receiptOf(session: Session): VerifiedPayment["receipt"] {
  const invoice = typeof session.invoice === "object" ? session.invoice : null;
  const intent = typeof session.payment_intent === "object" ? session.payment_intent : null;
  const charge = intent && typeof intent.latest_charge === "object" ? intent.latest_charge : null;
  const url = invoice?.hosted_invoice_url ?? charge?.receipt_url ?? null;
  return url && /^https?:\/\//.test(url) ? { url } : undefined;
}

function verifiedSession(session: Session, eventType?: string): VerifiedPayment {
  const currency = session.currency?.toLowerCase();
  const receipt = receiptOf(session);
  return {
    ...(receipt ? { receipt } : {}),
    payer: payerOf(session),
    providerPaymentId: session.id,
    status: sessionStatus(session, eventType),
    amount: session.amount_total ?? -1,
    currency: (currency === "eur" || currency === "rub" ? currency : "eur") as Currency,
    orderId: session.metadata?.orderId ?? session.client_reference_id ?? null,
  };
}

/** Connection problems, timeouts, rate limits and 5xx are outages; everything else is a refusal. */
function translateError(error: unknown, what: string): Error {
  const stripeError = error as { type?: string; statusCode?: number; message?: string };
  const outage =
    stripeError?.type === "StripeConnectionError" ||
    stripeError?.type === "StripeAPIError" ||
    stripeError?.type === "StripeRateLimitError" ||
    (typeof stripeError?.statusCode === "number" && stripeError.statusCode >= 500);
  if (outage || !stripeError?.type) return new ProviderUnavailableError(`Stripe ${what} failed: ${stripeError?.message ?? String(error)}`, { cause: error });
  return new ProviderRefusedError(`Stripe refused ${what}: ${stripeError.message ?? stripeError.type}`);
}

function clientConfig(settings: StripeSettings): ConstructorParameters<typeof Stripe>[1] {
  const base = settings.apiUrl ? new URL(settings.apiUrl) : null;
  return {
    timeout: settings.timeoutMs,
    // A retry is the customer's next press of the button, with the same idempotency key.
    maxNetworkRetries: 0,
    telemetry: false,
    ...(base
      ? {
          host: base.hostname,
          port: base.port || (base.protocol === "http:" ? 80 : 443),
          protocol: base.protocol === "http:" ? ("http" as const) : ("https" as const),
        }
      : {}),
  };
}

export class StripePaymentProvider implements PaymentProvider {
  readonly id = "stripe" as const;
  private readonly stripe: Stripe;

  constructor(private readonly settings: StripeSettings) {
    this.stripe = new Stripe(settings.secretKey, clientConfig(settings));
  }

  async create(request: PaymentRequest): Promise<CreatedPayment> {
    assertPaymentRequest(request);
    const returnUrl = new URL(request.returnUrl);
    // Stripe fills in the session id, so the return page checks exactly this attempt.
    const successUrl = `${returnUrl.toString()}${returnUrl.search ? "&" : "?"}paymentId={CHECKOUT_SESSION_ID}`;
    let session: Session;
    try {
      session = await this.stripe.checkout.sessions.create(
        {
          mode: "payment",
          line_items: request.lines.map((line) => ({
            quantity: line.quantity,
            price_data: { currency: request.currency, unit_amount: line.price, product_data: { name: line.description } },
          })),
          success_url: successUrl,
          cancel_url: request.cancelUrl,
          client_reference_id: request.orderId,
          // Stripe's page in the order's language, as the line items are (ADR 043).
          ...(request.language ? { locale: request.language } : {}),
          ...(request.customer.email ? { customer_email: request.customer.email } : {}),
          metadata: {
            orderId: request.orderId,
            description: request.description,
            ...(request.discountPercent ? { discountPercentage: String(request.discountPercent) } : {}),
          },
          payment_intent_data: { description: request.description, metadata: { orderId: request.orderId } },
          // Payment documents for EU clinics (ADR 024): a clinic buying as a business gives its VAT
          // number on Stripe's page, and Stripe issues and mails the paid invoice with it.
          tax_id_collection: { enabled: true },
          billing_address_collection: "required",
          invoice_creation: {
            enabled: true,
            invoice_data: { description: request.description, metadata: { orderId: request.orderId } },
          },
        },
        { idempotencyKey: request.idempotenceKey },
      );
    } catch (error) {
      throw translateError(error, "creating a Checkout Session");
    }
    if (!session.url) throw new MissingConfirmationUrlError(`Stripe session ${session.id} came without a url`);
    return { providerPaymentId: session.id, confirmationUrl: session.url, status: sessionStatus(session) };
  }

  async fetch(providerPaymentId: string): Promise<VerifiedPayment | null> {
    try {
      return verifiedSession(await this.stripe.checkout.sessions.retrieve(providerPaymentId, { expand: ["invoice", "payment_intent.latest_charge"] }));
    } catch (error) {
      const translated = translateError(error, `reading session ${providerPaymentId}`);
      if (translated instanceof ProviderRefusedError) return null;
      throw translated;
    }
  }

  async verifyNotification(rawBody: string, headers: Headers): Promise<VerifiedNotification> {
    const signature = headers.get("stripe-signature");
    if (!signature) throw new NotificationRefusedError("Stripe webhook without a Stripe-Signature header");
    let event: Stripe.Event;
    try {
      event = this.stripe.webhooks.constructEvent(rawBody, signature, this.settings.webhookSecret);
    } catch (error) {
      throw new NotificationRefusedError(`Stripe webhook signature refused: ${(error as Error).message}`);
    }
    if (!SESSION_EVENTS.has(event.type)) return { eventId: event.id, type: event.type, payment: null };
    // The signed event carries the session as Stripe saw it when the event happened.
    const session = event.data.object as Session;
    if (session?.object !== "checkout.session" || typeof session.id !== "string") throw new NotificationRefusedError(`Stripe event ${event.id} has no session`);
    return { eventId: event.id, type: event.type, payment: verifiedSession(session, event.type) };
  }
}
