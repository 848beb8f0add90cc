import { randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A local HTTP double of YooKassa's API v3, following its documentation for the parts the app uses:
 * `POST /v3/payments` (Basic auth with shop id and secret key, a required `Idempotence-Key` whose
 * repeat returns the same payment, `confirmation.type = redirect`, receipt items that must add up
 * to the amount), `GET /v3/payments/{id}`, and notifications (`{type: "notification", event,
 * object}`) POSTed to a webhook URL. Errors come as `{type: "error", code, description}`.
 * Tests drive the payment's fate (succeed, cancel, change the amount) and inject outages.
 */

export interface YooKassaAmount {
  value: string;
  currency: string;
}

export interface YooKassaDoublePayment {
  id: string;
  status: "pending" | "waiting_for_capture" | "succeeded" | "canceled";
  paid: boolean;
  amount: YooKassaAmount;
  description?: string;
  metadata: Record<string, string>;
  confirmation: { type: "redirect"; confirmation_url: string; return_url: string };
  receipt?: { customer?: Record<string, string>; items: Array<{ description: string; quantity: string; amount: YooKassaAmount; vat_code: number }> };
  /** Set when the payment succeeds with a receipt: the receipt is then registered (fiscal data in GET /v3/receipts). */
  receipt_registration?: "pending" | "succeeded" | "canceled";
  created_at: string;
  test: true;
}

export type OutageMode = "hang" | "hang_after_create" | "500" | "400";

/** The app's YooKassa variables pointing at the double. */
export function yooKassaAppEnv(double: Pick<YooKassaDouble, "shopId" | "secretKey" | "apiUrl">): Record<string, string> {
  return { YOOKASSA_SHOP_ID: double.shopId, YOOKASSA_SECRET_KEY: double.secretKey, YOOKASSA_API_URL: double.apiUrl };
}

export interface YooKassaDouble {
  url: string;
  /** The API base the app is configured with (`YOOKASSA_API_URL`). */
  apiUrl: string;
  shopId: string;
  secretKey: string;
  payments: Map<string, YooKassaDoublePayment>;
  /** Every API request received: method, path, idempotence key. */
  requests: Array<{ method: string; path: string; idempotenceKey: string | null }>;
  /** The next `count` create requests fail this way (hang = never answer, 400 = a refusal). */
  failNextCreates(mode: OutageMode, count?: number): void;
  succeed(id: string): YooKassaDoublePayment;
  cancel(id: string): YooKassaDoublePayment;
  setAmount(id: string, value: string): YooKassaDoublePayment;
  /** POSTs a notification for a payment; `object` overrides what the body claims. */
  notify(webhookUrl: string, event: string, id: string, object?: Partial<YooKassaDoublePayment>): Promise<Response>;
  close(): Promise<void>;
}

const toMinor = (value: string) => Math.round(Number(value) * 100);

export async function startYooKassaDouble(options: { shopId?: string; secretKey?: string } = {}): Promise<YooKassaDouble> {
  const shopId = options.shopId ?? "100500";
  const secretKey = options.secretKey ?? "test_double-secret-key";
  const payments = new Map<string, YooKassaDoublePayment>();
  const byKey = new Map<string, string>();
  const requests: YooKassaDouble["requests"] = [];
  const outages: OutageMode[] = [];
  const hanging = new Set<http.ServerResponse>();
  let base = "";

  const send = (res: http.ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { "Content-Type": "application/json" });
    res.end(JSON.stringify(body));
  };
  const error = (res: http.ServerResponse, status: number, code: string, description: string) => send(res, status, { type: "error", id: randomUUID(), code, description });

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const path = new URL(req.url ?? "/", "http://double").pathname;
      const idempotenceKey = (req.headers["idempotence-key"] as string | undefined) ?? null;
      requests.push({ method: req.method ?? "", path, idempotenceKey });
      const expected = `Basic ${Buffer.from(`${shopId}:${secretKey}`).toString("base64")}`;
      if (req.headers.authorization !== expected) return error(res, 401, "invalid_credentials", "Authentication by given credentials failed");

      if (req.method === "POST" && path === "/v3/payments") {
        if (!idempotenceKey) return error(res, 400, "invalid_request", "Idempotence-Key header is required");
        const outage = outages.shift();
        if (outage === "500") return error(res, 500, "internal_server_error", "Internal server error");
        if (outage === "400") return error(res, 400, "invalid_request", "Payment method is not available for this shop");
        const known = byKey.get(idempotenceKey);
        if (known) {
          if (outage === "hang" || outage === "hang_after_create") return void hanging.add(res);
          return send(res, 200, payments.get(known));
        }
        if (outage === "hang") return void hanging.add(res);
        let body: {
          amount?: YooKassaAmount;
          capture?: boolean;
          confirmation?: { type?: string; return_url?: string };
          description?: string;
          metadata?: Record<string, string>;
          receipt?: YooKassaDoublePayment["receipt"];
        };
        try {
          body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
        } catch {
          return error(res, 400, "invalid_request", "Body is not JSON");
        }
        if (!body.amount || !/^\d+\.\d{2}$/.test(body.amount.value) || !["RUB", "EUR"].includes(body.amount.currency)) return error(res, 400, "invalid_request", "amount is invalid");
        if (body.confirmation?.type !== "redirect" || !body.confirmation.return_url) return error(res, 400, "invalid_request", "confirmation.return_url is required for redirect");
        if (body.description && body.description.length > 128) return error(res, 400, "invalid_request", "description is too long");
        if (body.receipt) {
          const items = body.receipt.items ?? [];
          if (items.length === 0 || items.length > 100) return error(res, 400, "invalid_request", "receipt.items must hold 1 to 100 items");
          const sum = items.reduce((total, item) => total + Math.round(Number(item.quantity) * toMinor(item.amount.value)), 0);
          if (sum !== toMinor(body.amount.value)) return error(res, 400, "invalid_request", "Sum of receipt items does not match the payment amount");
          if (!body.receipt.customer?.email && !body.receipt.customer?.phone) return error(res, 400, "invalid_request", "receipt.customer needs email or phone");
        }
        const id = randomUUID();
        const payment: YooKassaDoublePayment = {
          id,
          status: "pending",
          paid: false,
          amount: body.amount,
          description: body.description,
          metadata: body.metadata ?? {},
          confirmation: { type: "redirect", confirmation_url: `${base}/checkout/${id}`, return_url: body.confirmation.return_url },
          receipt: body.receipt,
          created_at: new Date().toISOString(),
          test: true,
        };
        payments.set(id, payment);
        byKey.set(idempotenceKey, id);
        if (outage === "hang_after_create") return void hanging.add(res);
        return send(res, 200, payment);
      }

      if (req.method === "GET" && path === "/v3/receipts") {
        // The documented list of a payment's receipts, with the fiscal data the tax service registered.
        const payment = payments.get(new URL(req.url ?? "/", "http://double").searchParams.get("payment_id") ?? "");
        const items =
          payment?.receipt_registration === "succeeded"
            ? [
                {
                  id: `rt-${payment.id}`,
                  type: "payment",
                  payment_id: payment.id,
                  status: "succeeded",
                  fiscal_document_number: String(parseInt(payment.id.slice(0, 6), 16) % 100000),
                  fiscal_storage_number: "9960440300000001",
                  fiscal_attribute: String(parseInt(payment.id.slice(-8), 16)),
                  registered_at: new Date().toISOString(),
                  fiscal_provider_id: "fd9e9ab6-0001",
                  items: payment.receipt?.items ?? [],
                },
              ]
            : [];
        return send(res, 200, { type: "list", items });
      }
      const match = /^\/v3\/payments\/([^/]+)$/.exec(path);
      if (req.method === "GET" && match) {
        const payment = payments.get(decodeURIComponent(match[1]!));
        return payment ? send(res, 200, payment) : error(res, 404, "not_found", "Payment not found");
      }
      return error(res, 404, "not_found", "Unknown path");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const get = (id: string) => {
    const payment = payments.get(id);
    if (!payment) throw new Error(`the YooKassa double has no payment ${id}`);
    return payment;
  };

  return {
    url: base,
    apiUrl: `${base}/v3`,
    shopId,
    secretKey,
    payments,
    requests,
    failNextCreates(mode, count = 1) {
      for (let i = 0; i < count; i++) outages.push(mode);
    },
    succeed(id) {
      const payment = get(id);
      return Object.assign(payment, { status: "succeeded", paid: true }, payment.receipt ? { receipt_registration: "succeeded" as const } : {});
    },
    cancel(id) {
      return Object.assign(get(id), { status: "canceled", paid: false });
    },
    setAmount(id, value) {
      const payment = get(id);
      payment.amount = { ...payment.amount, value };
      return payment;
    },
    async notify(webhookUrl, event, id, object) {
      const body = JSON.stringify({ type: "notification", event, object: { ...get(id), ...object } });
      return fetch(webhookUrl, { method: "POST", headers: { "Content-Type": "application/json" }, body });
    },
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
