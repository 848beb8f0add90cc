import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useSearchParams } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { PartnerCard } from "~/components/partners/partner-card";
import { useTranslation } from "~/modules/i18n/i18n-context";
import { replyFor } from "~/modules/validation/reply";
import { affiliatesPageAction, type AffiliateReply, loadAffiliatesPage } from "~/modules/partners/affiliates-page.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }, { name: "robots", content: "noindex" }];

export async function loader(args: LoaderFunctionArgs) {
  return loadAffiliatesPage(args);
}

export async function action(args: ActionFunctionArgs) {
  return affiliatesPageAction(args);
}

export default function BackofficeAffiliates() {
  const view = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>() as AffiliateReply | undefined;
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const pageLink = (n: number) => {
    const next = new URLSearchParams(params);
    next.set("page", String(n));
    next.delete("open");
    return `?${next}`;
  };
  return (
    <section className="affiliates">
      <h1>{t("partners.backoffice.title")}</h1>
      <Form method="get" className="filters" role="search">
        <label htmlFor="affiliates-q" className="visually-hidden">
          {t("partners.backoffice.search")}
        </label>
        <input id="affiliates-q" type="search" name="q" defaultValue={view.search} placeholder={t("partners.backoffice.search")} />
        <button type="submit" className="button button-secondary button-small">
          {t("partners.backoffice.apply")}
        </button>
      </Form>
      {view.partners.length === 0 ? (
        <p className="empty">{view.search ? t("partners.backoffice.nothingFound") : t("partners.backoffice.empty")}</p>
      ) : (
        <ul className="plain-list affiliate-list">
          {view.partners.map((partner) => (
            <PartnerCard
              key={partner.id}
              partner={partner}
              open={view.open === partner.code || replyFor(reply, { partner_code_id: partner.id }) !== undefined}
              reply={replyFor(reply, { partner_code_id: partner.id })}
              period={view.period}
              ordersLimit={view.ordersLimit}
            />
          ))}
        </ul>
      )}
      {view.page > 1 || view.hasMore ? (
        <nav className="pagination" aria-label={t("pagination.label")}>
          {view.page > 1 ? <Link to={pageLink(view.page - 1)}>{t("pagination.previous")}</Link> : <span />}
          <span>{t("pagination.page", { page: view.page })}</span>
          {view.hasMore ? <Link to={pageLink(view.page + 1)}>{t("pagination.next")}</Link> : <span />}
        </nav>
      ) : null}
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
