import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { FilterBar } from "~/components/lists/filter-bar";
import { ListPager } from "~/components/lists/list-pager";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { PartnerCard } from "~/components/partners/partner-card";
import { useTranslation } from "~/components/i18n/i18n-context";
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
  return (
    <section className="affiliates">
      <h1>{t("partners.backoffice.title")}</h1>
      <FilterBar
        search={{ id: "affiliates-q", value: view.search, label: t("partners.backoffice.search") }}
        applyLabel={t("partners.backoffice.apply")}
      />
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
      <ListPager page={view.page} pageSize={view.pageSize} shown={view.partners.length} total={null} hasMore={view.hasMore} cursors={view.cursors} without={["open"]} />
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
