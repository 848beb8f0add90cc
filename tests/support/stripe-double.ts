import { createHmac, randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A local HTTP double of the parts of Stripe's API the app uses, so the official `stripe` package can
 * be pointed at it (host, port, protocol): `POST /v1/checkout/sessions` (form-encoded, Bearer key,
 * `Idempotency-Key` whose repeat returns the same session) and `GET /v1/checkout/sessions/{id}`.
 * Errors come as `{error: {type, code, message}}`. Webhook events are signed as Stripe documents it:
 * `Stripe-Signature: t={timestamp},v1={HMAC-SHA256(secret, "{timestamp}.{payload}")}`.
 *
 * Invoices for businesses follow Checkout's documented parameters: `tax_id_collection[enabled]`
 * (the page offers "purchasing as a business" and asks for the tax ID), `billing_address_collection`
 * (`auto` | `required`) and `invoice_creation[enabled]` with `invoice_data` (payment mode only). A
 * completed session then carries `customer_details` (name, business name, `tax_ids` as
 * `{type, value}`) and, with invoice creation, the id of its paid `invoice`.
 */

export interface StripeDoubleSession {
  id: string;
  object: "checkout.session";
  mode: string;
  status: "open" | "complete" | "expired";
  payment_status: "unpaid" | "paid" | "no_payment_required";
  amount_total: number;
  currency: string;
  client_reference_id: string | null;
  customer_email: string | null;
  metadata: Record<string, string>;
  success_url: string;
  cancel_url: string;
  url: string | null;
  line_items_sent: Array<{ quantity: number; price_data: { currency: string; unit_amount: number; product_data: { name: string } } }>;
  /** The language of Stripe's page (`auto` when not given). */
  locale: string;
  tax_id_collection: { enabled: boolean; required: "never" | "if_supported" };
  billing_address_collection: "auto" | "required" | null;
  invoice_creation: { enabled: boolean; invoice_data: { description: string | null; metadata: Record<string, string> } } | null;
  customer_details: {
    address: { country: string | null; city: string | null; line1: string | null; postal_code: string | null } | null;
    business_name: string | null;
    email: string | null;
    name: string | null;
    phone: string | null;
    tax_exempt: "none" | "exempt" | "reverse";
    tax_ids: Array<{ type: string; value: string }>;
  } | null;
  invoice: string | null;
  /** The payment of a completed session; its charge has a receipt page (`expand[]=payment_intent.latest_charge`). */
  payment_intent: string | null;
  livemode: false;
  created: number;
}

/** What a customer types on the Checkout page. */
export interface StripeDoublePayer {
  email?: string;
  name?: string;
  businessName?: string;
  /** An EU VAT number, stored as Stripe's `eu_vat` tax ID. */
  vatNumber?: string;
  country?: string;
}

/** The app's Stripe variables pointing at the double. */
export function stripeAppEnv(double: Pick<StripeDouble, "secretKey" | "webhookSecret" | "url">): Record<string, string> {
  return { STRIPE_SECRET_KEY: double.secretKey, STRIPE_WEBHOOK_SECRET: double.webhookSecret, STRIPE_API_URL: double.url };
}

export interface StripeDouble {
  url: string;
  secretKey: string;
  webhookSecret: string;
  sessions: Map<string, StripeDoubleSession>;
  requests: Array<{ method: string; path: string; idempotencyKey: string | null }>;
  failNextCreates(mode: "hang" | "500", count?: number): void;
  /** Pays the session; a clinic buying as a business gives its name and VAT number on the page. */
  complete(id: string, payer?: StripeDoublePayer): StripeDoubleSession;
  expire(id: string): StripeDoubleSession;
  /** A webhook event about a session, as Stripe would send it. */
  event(type: string, id: string): { id: string; payload: string };
  /** POSTs an event to the app with a signature (or a wrong one). */
  deliver(webhookUrl: string, payload: string, options?: { secret?: string; timestamp?: number }): Promise<Response>;
  close(): Promise<void>;
}

/** `a[b][0][c]=x` → `{a: {b: [{c: "x"}]}}`, as Stripe parses form bodies. */
export function parseStripeForm(body: string): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(body)) {
    const parts = key.replace(/\]/g, "").split("[");
    let node: Record<string, unknown> | unknown[] = root;
    parts.forEach((part, index) => {
      const last = index === parts.length - 1;
      const nextIsIndex = !last && /^\d+$/.test(parts[index + 1]!);
      const container = node as Record<string, unknown>;
      if (last) container[part] = value;
      else {
        container[part] ??= nextIsIndex ? [] : {};
        node = container[part] as Record<string, unknown>;
      }
    });
  }
  return root;
}

export function stripeSignature(payload: string, secret: string, timestamp = Math.floor(Date.now() / 1000)) {
  const signature = createHmac("sha256", secret).update(`${timestamp}.${payload}`).digest("hex");
  return `t=${timestamp},v1=${signature}`;
}

export async function startStripeDouble(options: { secretKey?: string; webhookSecret?: string } = {}): Promise<StripeDouble> {
  const secretKey = options.secretKey ?? "sk_test_double";
  const webhookSecret = options.webhookSecret ?? "whsec_double";
  const sessions = new Map<string, StripeDoubleSession>();
  const byKey = new Map<string, string>();
  const requests: StripeDouble["requests"] = [];
  const outages: Array<"hang" | "500"> = [];
  const hanging = new Set<http.ServerResponse>();
  let base = "";

  const send = (res: http.ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { "Content-Type": "application/json", "Request-Id": `req_${randomBytes(6).toString("hex")}` });
    res.end(JSON.stringify(body));
  };
  const error = (res: http.ServerResponse, status: number, type: string, message: string, code?: string) => send(res, status, { error: { type, message, ...(code ? { code } : {}) } });

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const path = new URL(req.url ?? "/", "http://double").pathname;
      const idempotencyKey = (req.headers["idempotency-key"] as string | undefined) ?? null;
      requests.push({ method: req.method ?? "", path, idempotencyKey });
      if (req.headers.authorization !== `Bearer ${secretKey}`) return error(res, 401, "invalid_request_error", "Invalid API Key provided");

      if (req.method === "POST" && path === "/v1/checkout/sessions") {
        const outage = outages.shift();
        if (outage === "500") return error(res, 500, "api_error", "Something went wrong on Stripe's end.");
        if (outage === "hang") return void hanging.add(res);
        if (idempotencyKey && byKey.has(idempotencyKey)) return send(res, 200, sessions.get(byKey.get(idempotencyKey)!));
        const params = parseStripeForm(Buffer.concat(chunks).toString("utf8")) as {
          mode?: string;
          line_items?: Array<{ quantity?: string; price_data?: { currency?: string; unit_amount?: string; product_data?: { name?: string } } }>;
          success_url?: string;
          cancel_url?: string;
          client_reference_id?: string;
          customer_email?: string;
          locale?: string;
          metadata?: Record<string, string>;
          tax_id_collection?: { enabled?: string; required?: string };
          billing_address_collection?: string;
          invoice_creation?: { enabled?: string; invoice_data?: { description?: string; metadata?: Record<string, string> } };
        };
        const boolean = (value: string | undefined) => (value === "true" ? true : value === "false" ? false : null);
        if (params.mode !== "payment") return error(res, 400, "invalid_request_error", "mode must be payment", "parameter_invalid_empty");
        if (!params.success_url || !params.cancel_url) return error(res, 400, "invalid_request_error", "success_url and cancel_url are required", "parameter_missing");
        if (params.tax_id_collection && boolean(params.tax_id_collection.enabled) === null) {
          return error(res, 400, "invalid_request_error", "Invalid boolean: tax_id_collection[enabled]", "parameter_invalid_boolean");
        }
        if (params.billing_address_collection !== undefined && !["auto", "required"].includes(params.billing_address_collection)) {
          return error(res, 400, "invalid_request_error", "Invalid billing_address_collection", "parameter_invalid_string");
        }
        if (params.invoice_creation) {
          if (boolean(params.invoice_creation.enabled) === null) return error(res, 400, "invalid_request_error", "Invalid boolean: invoice_creation[enabled]", "parameter_invalid_boolean");
          if (params.mode !== "payment") return error(res, 400, "invalid_request_error", "invoice_creation can only be used in payment mode", "parameter_invalid_empty");
        }
        const items = params.line_items ?? [];
        if (items.length === 0) return error(res, 400, "invalid_request_error", "line_items are required", "parameter_missing");
        const lineItems = [];
        for (const item of items) {
          const quantity = Number(item.quantity);
          const unitAmount = Number(item.price_data?.unit_amount);
          if (!Number.isInteger(quantity) || quantity < 1 || !Number.isInteger(unitAmount) || unitAmount < 0 || !item.price_data?.currency || !item.price_data.product_data?.name) {
            return error(res, 400, "invalid_request_error", "line_items are invalid", "parameter_invalid_integer");
          }
          lineItems.push({ quantity, price_data: { currency: item.price_data.currency, unit_amount: unitAmount, product_data: { name: item.price_data.product_data.name } } });
        }
        const id = `cs_test_${randomBytes(12).toString("hex")}`;
        const session: StripeDoubleSession = {
          id,
          object: "checkout.session",
          mode: "payment",
          status: "open",
          payment_status: "unpaid",
          amount_total: lineItems.reduce((sum, item) => sum + item.quantity * item.price_data.unit_amount, 0),
          currency: lineItems[0]!.price_data.currency,
          client_reference_id: params.client_reference_id ?? null,
          customer_email: params.customer_email ?? null,
          metadata: params.metadata ?? {},
          success_url: params.success_url,
          cancel_url: params.cancel_url,
          url: `${base}/c/pay/${id}`,
          line_items_sent: lineItems,
          locale: params.locale ?? "auto",
          tax_id_collection: { enabled: boolean(params.tax_id_collection?.enabled) ?? false, required: "never" },
          billing_address_collection: (params.billing_address_collection as "auto" | "required" | undefined) ?? null,
          invoice_creation: params.invoice_creation
            ? {
                enabled: boolean(params.invoice_creation.enabled) ?? false,
                invoice_data: { description: params.invoice_creation.invoice_data?.description ?? null, metadata: params.invoice_creation.invoice_data?.metadata ?? {} },
              }
            : null,
          customer_details: null,
          invoice: null,
          payment_intent: null,
          livemode: false,
          created: Math.floor(Date.now() / 1000),
        };
        sessions.set(id, session);
        if (idempotencyKey) byKey.set(idempotencyKey, id);
        return send(res, 200, session);
      }
      const match = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(path);
      if (req.method === "GET" && match) {
        const session = sessions.get(decodeURIComponent(match[1]!));
        if (!session) return error(res, 404, "invalid_request_error", `No such checkout.session: '${match[1]}'`, "resource_missing");
        // `expand[]`: the invoice and the payment's charge as objects with their pages, as Stripe answers.
        const expand = [...new URL(req.url ?? "/", "http://double").searchParams.entries()].filter(([key]) => key.startsWith("expand")).map(([, value]) => value);
        return send(res, 200, {
          ...session,
          ...(expand.includes("invoice") && session.invoice ? { invoice: { id: session.invoice, object: "invoice", status: "paid", hosted_invoice_url: `${base}/invoices/${session.invoice}` } } : {}),
          ...(expand.includes("payment_intent.latest_charge") && session.payment_intent
            ? { payment_intent: { id: session.payment_intent, object: "payment_intent", latest_charge: { id: `ch_${session.payment_intent.slice(3)}`, object: "charge", receipt_url: `${base}/receipts/${session.payment_intent}` } } }
            : {}),
        });
      }
      return error(res, 404, "invalid_request_error", `Unrecognized request URL (${req.method}: ${path})`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const get = (id: string) => {
    const session = sessions.get(id);
    if (!session) throw new Error(`the Stripe double has no session ${id}`);
    return session;
  };

  return {
    url: base,
    secretKey,
    webhookSecret,
    sessions,
    requests,
    failNextCreates(mode, count = 1) {
      for (let i = 0; i < count; i++) outages.push(mode);
    },
    complete(id, payer = {}) {
      const session = get(id);
      if (payer.vatNumber && !session.tax_id_collection.enabled) throw new Error("this session does not collect tax IDs");
      return Object.assign(session, {
        status: "complete",
        payment_status: "paid",
        url: null,
        customer_details: {
          address: { country: payer.country ?? null, city: null, line1: null, postal_code: null },
          business_name: payer.businessName ?? null,
          email: payer.email ?? session.customer_email,
          name: payer.name ?? null,
          phone: null,
          tax_exempt: "none",
          tax_ids: payer.vatNumber ? [{ type: "eu_vat", value: payer.vatNumber }] : [],
        },
        invoice: session.invoice_creation?.enabled ? `in_${randomBytes(12).toString("hex")}` : null,
        payment_intent: `pi_${randomBytes(12).toString("hex")}`,
      } satisfies Partial<StripeDoubleSession>);
    },
    expire(id) {
      return Object.assign(get(id), { status: "expired", url: null });
    },
    event(type, id) {
      const eventId = `evt_${randomBytes(12).toString("hex")}`;
      const payload = JSON.stringify({ id: eventId, object: "event", api_version: "2025-01-01", created: Math.floor(Date.now() / 1000), livemode: false, type, data: { object: get(id) } }, null, 2);
      return { id: eventId, payload };
    },
    async deliver(webhookUrl, payload, deliveryOptions = {}) {
      return fetch(webhookUrl, {
        method: "POST",
        headers: { "Content-Type": "application/json; charset=utf-8", "Stripe-Signature": stripeSignature(payload, deliveryOptions.secret ?? webhookSecret, deliveryOptions.timestamp) },
        body: payload,
      });
    },
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
