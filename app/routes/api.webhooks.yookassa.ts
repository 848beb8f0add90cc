import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { webhookMethodNotAllowed, webhookResponse } from "~/modules/payments/webhooks.server";

export async function loader({ request, context }: LoaderFunctionArgs) {
  return webhookMethodNotAllowed(request, context);
}

/**
 * YooKassa notifications (payment.succeeded, payment.canceled): each one is checked again with
 * GET /payments/{id}; the notification's own fields are never trusted.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return webhookMethodNotAllowed(request, context);
  return webhookResponse(request, context, "yookassa");
}
