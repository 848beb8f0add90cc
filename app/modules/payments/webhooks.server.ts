import type { AppLoadContext } from "@remix-run/node";
import type { PaymentProviderId } from "~db/schema";
import { getConfig } from "~/modules/config/config.server";
import { getDb } from "~/modules/db/db.server";
import { handleNotification } from "./reconciliation.server";
import { jsonAnswer } from "~/modules/http/answers/answers.server";
import { getLocale } from "~/modules/http/request/request-context.server";

/**
 * The body of every webhook route (`/api/webhooks/{provider}`): the raw body goes to the provider
 * module untouched (Stripe signs the exact bytes), the answer is a small JSON status. These routes are
 * exempt from the cross-site check; each provider's signature or API re-check guards them. The body
 * is small by the time it is read here: the body limit (security/body-limit.server.ts,
 * `BODY_LIMIT_WEBHOOK`) refused anything larger as it arrived.
 */
export async function webhookResponse(request: Request, context: AppLoadContext, providerId: PaymentProviderId): Promise<Response> {
  const rawBody = await request.text();
  const result = await handleNotification(await getDb(), getConfig(), providerId, rawBody, request.headers);
  if (result.status >= 400) return jsonAnswer((await getLocale(request, context)).language, result.status, { outcome: result.outcome });
  return Response.json({ outcome: result.outcome }, { status: result.status });
}

export async function webhookMethodNotAllowed(request: Request, context: AppLoadContext) {
  return jsonAnswer((await getLocale(request, context)).language, 405, { error: "use POST" }, { headers: { Allow: "POST" } });
}
