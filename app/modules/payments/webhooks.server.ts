import type { PaymentProviderId } from "~db/schema";
import { getConfig } from "~/modules/config/config.server";
import { getDb } from "~/modules/db/db.server";
import { handleNotification } from "./reconciliation.server";
import { jsonAnswer } from "~/modules/http/answers.server";

/** Provider notifications are small; anything larger is not one. */
const MAX_BODY_BYTES = 256 * 1024;

/**
 * The body of every webhook route (`/api/webhooks/{provider}`): the raw body goes to the provider
 * module untouched (Stripe signs the exact bytes), the answer is a small JSON status. These routes are
 * exempt from the cross-site check; each provider's signature or API re-check guards them.
 */
export async function webhookResponse(request: Request, providerId: PaymentProviderId): Promise<Response> {
  if (Number(request.headers.get("Content-Length") ?? 0) > MAX_BODY_BYTES) return jsonAnswer(request, 413, { error: "too large" });
  const rawBody = await request.text();
  if (Buffer.byteLength(rawBody) > MAX_BODY_BYTES) return jsonAnswer(request, 413, { error: "too large" });
  const result = await handleNotification(await getDb(), getConfig(), providerId, rawBody, request.headers);
  if (result.status >= 400) return jsonAnswer(request, result.status, { outcome: result.outcome });
  return Response.json({ outcome: result.outcome }, { status: result.status });
}

export function webhookMethodNotAllowed(request: Request) {
  return jsonAnswer(request, 405, { error: "use POST" }, { headers: { Allow: "POST" } });
}
