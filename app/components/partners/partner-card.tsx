import { Link, useNavigation } from "@remix-run/react";
import type { SerializeFrom } from "@remix-run/node";
import { SectionError } from "~/components/section-error";
import { useTranslation } from "~/components/i18n/i18n-context";
import { formatMoney } from "~/modules/money/format";
import { statusLabelKey } from "~/modules/orders/status";
import type { AffiliateReply, affiliatesList } from "~/modules/partners/affiliates-page.server";
import { formatDate, formatPercent } from "~/modules/partners/format";
import { PartnerPayouts, PercentageForm } from "./partner-payouts";
import { ReferralTable } from "./referral-table";
import type { OrderStatus } from "~db/schema";

type Partner = SerializeFrom<typeof affiliatesList>["partners"][number];

/** One partner in the back office's list: summary, reward percentage, payouts and referrals (partners spec §5). */
export function PartnerCard({
  partner,
  open,
  reply,
  period,
  ordersLimit,
}: {
  partner: Partner;
  open: boolean;
  reply?: AffiliateReply;
  period: { year: number; quarter: number };
  ordersLimit: number;
}) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const money = (minor: number) => formatMoney(minor, "rub", language);
  const id = (name: string) => `${name}-${partner.code}`;
  const active = partner.referrals.filter((referral) => referral.active);
  const expired = partner.referrals.filter((referral) => !referral.active);

  // A partner not opened shows its head and a link that opens it; the rest is read only then (ADR 064).
  if (!partner.detailed)
    return (
      <li className="card affiliate" id={`partner-${partner.code}`}>
        <PartnerHead partner={partner} />
        <p className="affiliate-open">
          <Link to={partner.openHref}>{t("partners.backoffice.summary")}</Link>
        </p>
      </li>
    );

  return (
    <li className="card affiliate" id={`partner-${partner.code}`}>
      <PartnerHead partner={partner} />

      <details open={open || undefined}>
        <summary>{t("partners.backoffice.summary")}</summary>
        <div className="affiliate-body">
          <div className="affiliate-columns">
            <section aria-labelledby={id("balance")}>
              <h3 id={id("balance")}>{t("partners.balance.title")}</h3>
              <dl className="affiliate-balance">
                <div>
                  <dt>{t("partners.balance.accrued")}</dt>
                  <dd>{money(partner.balance.accrued)}</dd>
                </div>
                <div>
                  <dt>{t("partners.balance.paid")}</dt>
                  <dd>{money(partner.balance.paid)}</dd>
                </div>
                <div>
                  <dt>{t("partners.balance.due")}</dt>
                  <dd>
                    <strong>{money(partner.balance.due)}</strong>
                  </dd>
                </div>
              </dl>
              <p className="small">
                {t("partners.backoffice.contacts")}: {partner.contactEmail ?? "—"}, {partner.contactPhone ?? "—"}
                <br />
                {partner.offerAcceptedAt
                  ? t("partners.backoffice.offerAccepted", {
                      date: formatDate(partner.offerAcceptedAt, language),
                    })
                  : t("partners.backoffice.offerNotAccepted")}
              </p>
            </section>

            <section aria-labelledby={id("percentage")}>
              <h3 id={id("percentage")}>{t("partners.backoffice.percentage")}</h3>
              <p className="affiliate-percentage">
                <strong>{`${formatPercent(partner.percentage, language)} %`}</strong>
              </p>
              <PercentageForm partner={partner} reply={reply} busy={busy} />
            </section>
          </div>

          <PartnerPayouts partner={partner} reply={reply} period={period} />

          <section aria-labelledby={id("referrals")} className="referrals">
            <h3 id={id("referrals")}>{t("partners.backoffice.referrals.title")}</h3>
            <fieldset className="referral-toggle">
              <legend className="visually-hidden">{t("partners.backoffice.referrals.title")}</legend>
              <label>
                <input type="radio" name={id("referrals-view")} value="active" defaultChecked />
                {t("partners.backoffice.referrals.active", {
                  count: active.length,
                })}
              </label>
              <label>
                <input type="radio" name={id("referrals-view")} value="expired" />
                {t("partners.backoffice.referrals.expired", {
                  count: expired.length,
                })}
              </label>
            </fieldset>
            <ReferralTable className="referrals-active" referrals={active} empty={t("partners.backoffice.referrals.noneActive")} />
            <ReferralTable className="referrals-expired" referrals={expired} empty={t("partners.backoffice.referrals.noneExpired")} />
          </section>
        </div>
      </details>

      <details>
        <summary>
          {t("partners.backoffice.orders.toggle", {
            count: partner.orders.length,
          })}
        </summary>
        {partner.ordersFailure ? (
          <SectionError failure={partner.ordersFailure} />
        ) : partner.orders.length === 0 ? (
          <p className="muted">{t("partners.backoffice.orders.empty")}</p>
        ) : (
          <div className="table-wrap">
            <table>
              <thead>
                <tr>
                  <th scope="col">{t("partners.orders.columns.date")}</th>
                  <th scope="col">{t("partners.orders.columns.number")}</th>
                  <th scope="col">{t("partners.backoffice.orders.doctor")}</th>
                  <th scope="col">{t("partners.backoffice.orders.email")}</th>
                  <th scope="col" className="num">
                    {t("partners.orders.columns.amount")}
                  </th>
                  <th scope="col">{t("partners.orders.columns.status")}</th>
                </tr>
              </thead>
              <tbody>
                {partner.orders.map((order) => (
                  <tr key={order.id}>
                    <td>{formatDate(order.createdAt, language)}</td>
                    <td>
                      <code>{order.number}</code>
                    </td>
                    <td>{order.client ?? "—"}</td>
                    <td>{order.email}</td>
                    <td className="num">{order.total === null ? "—" : formatMoney(order.total, order.currency, language)}</td>
                    <td>
                      <span className={`badge badge-${order.status}`}>{t(statusLabelKey(order.status as OrderStatus))}</span>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
            {partner.orders.length >= ordersLimit ? (
              <p className="muted small">
                {t("partners.backoffice.orders.limited", {
                  count: ordersLimit,
                })}
              </p>
            ) : null}
          </div>
        )}
      </details>
    </li>
  );
}

/** Code, name, e-mail and the two figures staff scan the list for. */
function PartnerHead({ partner }: { partner: Partner }) {
  const { t, i18n } = useTranslation();
  const money = (minor: number) => formatMoney(minor, "rub", i18n.language);
  return (
    <div className="affiliate-head">
      <h2>
        <code className="partner-code">{partner.code}</code> {partner.name ?? <span className="muted">{t("partners.backoffice.noName")}</span>}
      </h2>
      <p className="muted small">{partner.email}</p>
      <dl className="affiliate-figures">
        <div>
          <dt>{t("partners.backoffice.referralsSum")}</dt>
          <dd>{money(partner.referralsSum)}</dd>
        </div>
        <div>
          <dt>{t("partners.balance.due")}</dt>
          <dd>{money(partner.balance.due)}</dd>
        </div>
      </dl>
    </div>
  );
}
