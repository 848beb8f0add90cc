import { useTranslation } from "~/components/i18n/i18n-context";
import { formatMoney } from "~/modules/money/format";
import { formatDate } from "~/modules/partners/format";
import type { SerializeFrom } from "@remix-run/node";
import type { affiliatesList } from "~/modules/partners/affiliates-page.server";

type Referrals = SerializeFrom<typeof affiliatesList>["partners"][number]["referrals"];

export function ReferralTable({ className, referrals, empty }: { className: string; referrals: Referrals; empty: string }) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  if (referrals.length === 0) return <p className={`muted ${className}`}>{empty}</p>;
  return (
    <div className={`table-wrap ${className}`}>
      <table>
        <thead>
          <tr>
            <th scope="col">{t("partners.backoffice.referrals.email")}</th>
            <th scope="col">{t("partners.backoffice.referrals.firstPaid")}</th>
            <th scope="col">{t("partners.backoffice.referrals.expires")}</th>
            <th scope="col" className="num">
              {t("partners.backoffice.referrals.orders")}
            </th>
            <th scope="col" className="num">
              {t("partners.backoffice.referrals.sum")}
            </th>
            <th scope="col" className="num">
              {t("partners.backoffice.referrals.eligible")}
            </th>
          </tr>
        </thead>
        <tbody>
          {referrals.map((referral) => (
            <tr key={referral.email}>
              <td>{referral.email}</td>
              <td>{referral.firstPaidAt ? formatDate(referral.firstPaidAt, language) : t("partners.backoffice.referrals.notPaidYet")}</td>
              <td>{formatDate(referral.expiresAt, language)}</td>
              <td className="num">{referral.ordersCount}</td>
              <td className="num">{formatMoney(referral.ordersSum, "rub", language)}</td>
              <td className="num">{formatMoney(referral.eligibleSum, "rub", language)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
