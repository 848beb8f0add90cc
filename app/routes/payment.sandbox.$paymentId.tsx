import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { useTranslation } from "~/components/i18n/i18n-context";
import { formatMoney } from "~/modules/money/format";
import { loadSandboxCheckoutPage, sandboxCheckoutPageAction } from "~/modules/payments/sandbox-checkout-page.server";

/**
 * The sandbox provider's checkout page: a local stand-in for YooKassa/Stripe, clearly marked as a
 * test, that never exists in strict mode. "Pay" and "Decline" change only the sandbox's own store,
 * then the sandbox notifies the app through the same webhook handling as a real provider, and sends
 * the customer back to the return URL, where the payment is verified again.
 */
export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? "Aligner Lab" }, { name: "robots", content: "noindex" }];

export async function loader(args: LoaderFunctionArgs) {
  return loadSandboxCheckoutPage(args);
}

export async function action(args: ActionFunctionArgs) {
  return sandboxCheckoutPageAction(args);
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
