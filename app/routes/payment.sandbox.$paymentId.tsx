import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { getConfig } from "~/modules/config/config.server";
import { getDb } from "~/modules/db/db.server";
import { useTranslation } from "~/modules/i18n/i18n-context";
import { formatMoney } from "~/modules/money/format";
import { longOrderNumber } from "~/modules/orders/orders.server";
import { sandboxProvider } from "~/modules/payments/provider-choice.server";
import { handleNotification } from "~/modules/payments/reconciliation.server";
import { readFormData } from "~/modules/http/request.server";
import { getTranslator } from "~/modules/i18n/i18n.server";
import { logger } from "~/modules/log/logger.server";

/**
 * The sandbox provider's checkout page: a local stand-in for YooKassa/Stripe, clearly marked as a
 * test, that never exists in strict mode. "Pay" and "Decline" change only the sandbox's own store,
 * then the sandbox notifies the app through the same webhook handling as a real provider, and sends
 * the customer back to the return URL, where the payment is verified again.
 */
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

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? "Aligner Lab" }, { name: "robots", content: "noindex" }];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { checkout } = await findCheckout(params.paymentId);
  const { t } = await getTranslator(request);
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

export async function action({ request, params }: ActionFunctionArgs) {
  const { db, provider, checkout } = await findCheckout(params.paymentId);
  const form = await readFormData(request);
  const outcome = form.get("outcome") === "pay" ? "pay" : "decline";
  if (await provider.decide(checkout.id, outcome)) {
    const notification = provider.notification(checkout.id, outcome === "pay" ? "payment.succeeded" : "payment.canceled");
    const result = await handleNotification(db, getConfig(), "sandbox", notification.body, notification.headers);
    if (result.status !== 200) logger.error("sandbox notification not accepted:", result);
  }
  return redirect(returnUrl(checkout));
}

/** It stands in for a provider's page, which carries none of this app's code: a plain form, no JavaScript. */
export const handle = { hydrate: false };

export default function SandboxCheckout() {
  const { orderNumber, description, lines, amount, currency, status, returnUrl } = useLoaderData<typeof loader>();
  const { t, i18n } = useTranslation();
  return (
    <section className="container narrow-page">
      <p className="note" role="note">
        <strong>{t("sandbox.badge")}</strong> {t("sandbox.text")}
      </p>
      <h1>{t("sandbox.title", { number: orderNumber })}</h1>
      <p className="muted">{description}</p>
      {lines.length ? (
        <ul className="small">
          {lines.map((line, index) => (
            <li key={index}>
              {line.description}: {line.quantity} × {formatMoney(line.price, currency, i18n.language)}
            </li>
          ))}
        </ul>
      ) : null}
      <p className="lead">{formatMoney(amount, currency, i18n.language)}</p>
      {status === "pending" ? (
        <Form method="post" className="actions">
          <button type="submit" name="outcome" value="pay" className="button">
            {t("sandbox.pay")}
          </button>
          <button type="submit" name="outcome" value="decline" className="button button-secondary">
            {t("payments.sandbox.decline")}
          </button>
        </Form>
      ) : (
        <>
          <p>{t(status === "succeeded" ? "payments.sandbox.paid" : "payments.sandbox.declined")}</p>
          <p>
            <a href={returnUrl} className="button">
              {t("payments.sandbox.back")}
            </a>
          </p>
        </>
      )}
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
