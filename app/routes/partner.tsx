import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { PartnerContacts } from "~/components/partners/partner-contacts";
import { PayoutHistory } from "~/components/partners/payout-history";
import { ReferralOrders } from "~/components/partners/referral-orders";
import { SectionError } from "~/components/section-error";
import { PartnerNameForm } from "~/components/partners/partner-name-form";
import { PartnerCodeOffer } from "~/components/partners/partner-code-offer";
import { useTranslation } from "~/components/i18n/i18n-context";
import { formatMoney } from "~/modules/money/format";
import { CopyLinkField } from "~/components/partners/copy-link-field";
import { formatPercent } from "~/modules/partners/format";
import { loadPartnerPage, partnerPageAction, type PartnerReply } from "~/modules/partners/partner-page.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }, { name: "robots", content: "noindex" }];

export async function loader(args: LoaderFunctionArgs) {
  return loadPartnerPage(args);
}

export async function action(args: ActionFunctionArgs) {
  return partnerPageAction(args);
}

export default function PartnerCabinet() {
  const screen = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>() as PartnerReply | undefined;
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const money = (minor: number) => formatMoney(minor, "rub", language);

  const view = screen.partner;
  if (!view) {
    return (
      <section className="container partner-page">
        <h1>{t("partners.title")}</h1>
        {screen.codeFailure ? <SectionError failure={screen.codeFailure} /> : <PartnerCodeOffer busy={busy} />}
        <p>
          <Link to="/refdoc">{t("partners.intro.offerLink")}</Link>
        </p>
      </section>
    );
  }

  return (
    <section className="container partner-page">
      <h1>{t("partners.title")}</h1>

      <aside className="note partner-intro" aria-labelledby="partner-intro-title">
        <h2 id="partner-intro-title">{t("partners.intro.title")}</h2>
        <ol>
          <li>{t("partners.intro.step1")}</li>
          <li>{t("partners.intro.step2")}</li>
          <li>
            {t("partners.intro.step3", {
              percentage: formatPercent(view.percentage, language),
            })}
          </li>
        </ol>
        <p>
          <Link to="/refdoc">{t("partners.intro.offerLink")}</Link>
        </p>
      </aside>

      <div className="partner-grid">
        <section className="card stack" aria-labelledby="partner-code-title">
          <h2 id="partner-code-title">{t("partners.code.title")}</h2>
          <p className="partner-code-line">
            {t("partners.code.label")}: <strong className="partner-code">{view.code}</strong>
          </p>
          <PartnerNameForm name={view.name} reply={reply} busy={busy} />
          {view.link ? <CopyLinkField id="partner-link" label={t("partners.code.linkLabel")} link={view.link} /> : <p className="hint">{t("partners.code.linkHint")}</p>}
        </section>

        <PartnerContacts view={view} reply={reply} busy={busy} />

        <section className="card stack partner-balance" aria-labelledby="partner-balance-title">
          <h2 id="partner-balance-title">{t("partners.balance.title")}</h2>
          <dl>
            <div>
              <dt>{t("partners.balance.accrued")}</dt>
              <dd>{money(view.balance.accrued)}</dd>
            </div>
            <div>
              <dt>{t("partners.balance.paid")}</dt>
              <dd>{money(view.balance.paid)}</dd>
            </div>
            <div className="partner-due">
              <dt>{t("partners.balance.due")}</dt>
              <dd>{money(view.balance.due)}</dd>
            </div>
          </dl>
          <p className="hint">
            {t("partners.balance.percentage")}: <strong>{`${formatPercent(view.percentage, language)} %`}</strong>
          </p>
          <p className="hint">
            {t("partners.balance.referrals", {
              total: view.referrals.total,
              active: view.referrals.active,
            })}
          </p>
          <p className="hint">{t("partners.balance.rule")}</p>
        </section>
      </div>

      <PayoutHistory payouts={screen.payouts} failure={screen.payoutsFailure} />

      <ReferralOrders screen={screen} />
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
