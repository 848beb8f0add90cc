import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { webhookMethodNotAllowed, webhookResponse } from "~/modules/payments/webhooks.server";

export async function loader({ request, context }: LoaderFunctionArgs) {
  return webhookMethodNotAllowed(request, context);
}

/**
 * Stripe events (checkout.session.completed, async payment succeeded/failed, expired): the
 * Stripe-Signature header is verified over the raw body; a bad signature gets 400.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return webhookMethodNotAllowed(request, context);
  return webhookResponse(request, context, "stripe");
}
