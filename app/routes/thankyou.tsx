import type { MetaFunction } from "@remix-run/node";
import { Form, Link } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { useTranslation } from "~/modules/i18n/i18n-context";

export const meta: MetaFunction = () => [{ title: "Aligner Lab" }];

export default function ThankYou() {
  const { t } = useTranslation();
  return (
    <section className="container narrow-page">
      <h1>{t("thankyou.title")}</h1>
      <p>{t("thankyou.text")}</p>
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
