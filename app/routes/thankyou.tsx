import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { OrderFollowUpNote } from "~/components/cabinet/order-follow-up";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { useTranslation } from "~/components/i18n/i18n-context";
import { loadThankYouPage } from "~/modules/cabinet/thank-you-page.server";

export const meta: MetaFunction = () => [{ title: "Aligner Lab" }];

export async function loader(args: LoaderFunctionArgs) {
  return loadThankYouPage(args);
}

export default function ThankYou() {
  const { order } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  return (
    <section className="container narrow-page">
      <h1>{t("thankyou.title")}</h1>
      <p>{t("thankyou.text")}</p>
      {order ? (
        <>
          <p>{t("thankyou.order", { number: order.number })}</p>
          <OrderFollowUpNote followUp={order.followUp} />
        </>
      ) : null}
      <div className="actions">
        <Link to="/" className="button button-secondary">
          {t("errors.home")}
        </Link>
        <Form method="post" action="/order/new" reloadDocument>
          <button type="submit" className="button">
            {t("thankyou.newOrder")}
          </button>
        </Form>
      </div>
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
