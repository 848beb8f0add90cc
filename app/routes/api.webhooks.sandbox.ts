import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { webhookMethodNotAllowed, webhookResponse } from "~/modules/payments/webhooks.server";

export async function loader({ request, context }: LoaderFunctionArgs) {
  return webhookMethodNotAllowed(request, context);
}

/**
 * Notifications of the development sandbox provider, signed with a key derived from SESSION_SECRET
 * and checked against the sandbox's own store. Not configured (404) in strict mode.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return webhookMethodNotAllowed(request, context);
  return webhookResponse(request, context, "sandbox");
}
