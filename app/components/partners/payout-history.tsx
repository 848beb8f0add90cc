import type { SerializeFrom } from "@remix-run/node";
import { SectionError } from "~/components/section-error";
import { useTranslation } from "~/components/i18n/i18n-context";
import { formatMoney } from "~/modules/money/format";
import { formatDate, formatQuarter } from "~/modules/partners/format";
import type { loadPartnerPage } from "~/modules/partners/partner-page.server";

type Screen = SerializeFrom<typeof loadPartnerPage>;

/** The partner's payouts, newest first: when, for which quarter, how much and who recorded it. */
export function PayoutHistory({ payouts, failure }: { payouts: Screen["payouts"]; failure: Screen["payoutsFailure"] }) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  return (
    <section className="partner-payouts" aria-labelledby="partner-payouts-title">
      <h2 id="partner-payouts-title">{t("partners.payouts.title")}</h2>
      {failure ? (
        <SectionError failure={failure} />
      ) : payouts.length === 0 ? (
        <p className="empty">{t("partners.payouts.empty")}</p>
      ) : (
        <div className="table-wrap">
          <table className="narrow-cards">
            <thead>
              <tr>
                <th scope="col">{t("partners.payouts.date")}</th>
                <th scope="col">{t("partners.payouts.period")}</th>
                <th scope="col" className="num">
                  {t("partners.payouts.amount")}
                </th>
                <th scope="col">{t("partners.payouts.by")}</th>
              </tr>
            </thead>
            <tbody>
              {payouts.map((payout) => (
                <tr key={payout.id} className="payout-row">
                  <td data-label={t("partners.payouts.date")}>{formatDate(payout.paidAt, language)}</td>
                  <td data-label={t("partners.payouts.period")}>{formatQuarter(t, payout.year, payout.quarter)}</td>
                  <td data-label={t("partners.payouts.amount")} className="num">
                    {formatMoney(payout.amount, "rub", language)}
                  </td>
                  <td data-label={t("partners.payouts.by")}>{payout.by ?? t("partners.payouts.backoffice")}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
