import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { getConfig } from "~/modules/config/config.server";
import { getDb } from "~/modules/db/db.server";
import { longOrderNumber } from "~/modules/orders/orders.server";
import { sandboxProvider } from "~/modules/payments/provider-choice.server";
import { handleNotification } from "~/modules/payments/reconciliation.server";
import { readSubmission } from "~/modules/http/forms/submission.server";
import { sandboxOutcomeSchema } from "./forms";
import { logger } from "~/modules/log/logger.server";
import { getRequestTranslator } from "~/modules/http/request/request-context.server";

async function findCheckout(paymentId: string | undefined) {
  const db = await getDb();
  const provider = sandboxProvider(getConfig(), db);
  const checkout = provider && paymentId ? await provider.checkout(paymentId) : undefined;
  if (!provider || !checkout) throw new Response("Not found", { status: 404 });
  return { db, provider, checkout };
}

function returnUrl(checkout: { id: string; return_url: string }) {
  const url = new URL(checkout.return_url);
  url.searchParams.set("paymentId", checkout.id);
  return url.toString();
}

export async function loadSandboxCheckoutPage({ request, params, context }: LoaderFunctionArgs) {
  const { checkout } = await findCheckout(params.paymentId);
  const t = await getRequestTranslator(request, context);
  const orderNumber = checkout.order_id ? longOrderNumber(checkout.order_id) : "";
  return {
    // The tab's title in the reader's language, like the page (ADR 024).
    title: t("sandbox.title", { number: orderNumber }),
    orderNumber,
    description: checkout.description,
    lines: checkout.lines as Array<{ description: string; quantity: number; price: number }>,
    amount: Number(checkout.amount),
    currency: checkout.currency,
    status: checkout.status,
    returnUrl: returnUrl(checkout),
  };
}

export async function sandboxCheckoutPageAction({ request, params, context }: ActionFunctionArgs) {
  const { db, provider, checkout } = await findCheckout(params.paymentId);
  const submission = await readSubmission(request, context, sandboxOutcomeSchema);
  const outcome = submission.status === "success" && submission.value.outcome === "pay" ? "pay" : "decline";
  if (await provider.decide(checkout.id, outcome)) {
    const notification = provider.notification(checkout.id, outcome === "pay" ? "payment.succeeded" : "payment.canceled");
    const result = await handleNotification(db, getConfig(), "sandbox", notification.body, notification.headers);
    if (result.status !== 200) logger.error("sandbox notification not accepted:", result);
  }
  return redirect(returnUrl(checkout));
}
