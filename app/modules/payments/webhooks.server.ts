import type { PaymentProviderId } from "~db/schema";
import { getConfig } from "~/modules/config/config.server";
import { getDb } from "~/modules/db/db.server";
import { handleNotification } from "./payments.server";

/** Provider notifications are small; anything larger is not one. */
const MAX_BODY_BYTES = 256 * 1024;

/**
 * The body of every webhook route (`/api/webhooks/{provider}`): the raw body goes to the provider
 * module untouched (Stripe signs the exact bytes), the answer is a small JSON status. These routes are
 * exempt from the cross-site check; each provider's signature or API re-check guards them.
 */
export async function webhookResponse(request: Request, providerId: PaymentProviderId): Promise<Response> {
  if (Number(request.headers.get("Content-Length") ?? 0) > MAX_BODY_BYTES) return Response.json({ error: "too large" }, { status: 413 });
  const rawBody = await request.text();
  if (Buffer.byteLength(rawBody) > MAX_BODY_BYTES) return Response.json({ error: "too large" }, { status: 413 });
  const result = await handleNotification(await getDb(), getConfig(), providerId, rawBody, request.headers);
  return Response.json({ outcome: result.outcome }, { status: result.status });
}

export function webhookMethodNotAllowed() {
  return Response.json({ error: "use POST" }, { status: 405, headers: { Allow: "POST" } });
}
