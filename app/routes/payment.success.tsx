import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { OrderFollowUpNote } from "~/components/cabinet/order-follow-up";
import { PaymentReceiptNote } from "~/components/cabinet/payment-receipt";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { useTranslation } from "~/components/i18n/i18n-context";
import { loadPaymentSuccessPage } from "~/modules/payments/payment-success-page.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: "Aligner Lab" },
  { name: "robots", content: "noindex" },
  // Not confirmed yet: look again in a few seconds, with or without JavaScript.
  ...(data?.state === "waiting" ? [{ httpEquiv: "refresh", content: "5" }] : []),
];

/**
 * Return page after payment (DESIGN §4.19): the order becomes paid only when the provider confirms
 * a successful payment for this order and amount (the one GET that may change state, because the
 * change is verified with the provider). A forged return URL changes nothing. While unconfirmed,
 * the page checks again by itself (a meta refresh, so also without JavaScript). Private (ADR 031):
 * shown only to the payer's browser (the return address's token) and those who may open the order.
 */
export async function loader(args: LoaderFunctionArgs) {
  return loadPaymentSuccessPage(args);
}

export default function PaymentSuccess() {
  const { again, payAgain, number, state, canPayAgain, followUp, receipt } = useLoaderData<typeof loader>();
  const { t, i18n } = useTranslation();
  return (
    <section className="container narrow-page">
      {state === "update_failed" ? (
        <>
          <h1>{t("payments.success.updateFailedTitle", { number })}</h1>
          <p role="alert">{t("payments.success.updateFailed")}</p>
        </>
      ) : (
        <>
          <h1>{t(`paymentResult.${state}.title`, { number })}</h1>
          <p>{t(`paymentResult.${state}.text`)}</p>
        </>
      )}
      {receipt ? <PaymentReceiptNote paid={receipt} locale={i18n.language === "ru" ? "ru-RU" : i18n.language} /> : null}
      {followUp ? <OrderFollowUpNote followUp={followUp} /> : null}
      {state === "waiting" ? (
        <p className="small muted">
          {t("payments.success.autoCheck")}{" "}
          <a href={again} className="link-button">
            {t("payments.success.checkAgain")}
          </a>
        </p>
      ) : null}
      <div className="actions">
        {canPayAgain ? (
          <Link to={payAgain} className="button">
            {t("payments.success.payAgain")}
          </Link>
        ) : null}
        <Form method="post" action="/order/new" reloadDocument>
          <button type="submit" className="button button-secondary">
            {t("paymentResult.newOrder")}
          </button>
        </Form>
        <Link to="/" className="button button-secondary">
          {t("errors.home")}
        </Link>
      </div>
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
