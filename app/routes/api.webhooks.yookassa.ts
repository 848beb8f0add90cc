import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { webhookMethodNotAllowed, webhookResponse } from "~/modules/payments/webhooks.server";

export async function loader({ request }: LoaderFunctionArgs) {
  return webhookMethodNotAllowed(request);
}

/**
 * YooKassa notifications (payment.succeeded, payment.canceled): each one is checked again with
 * GET /payments/{id}; the notification's own fields are never trusted.
 */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return webhookMethodNotAllowed(request);
  return webhookResponse(request, "yookassa");
}
