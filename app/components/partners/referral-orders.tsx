import { FilterBar } from "~/components/lists/filter-bar";
import { ListPager } from "~/components/lists/list-pager";
import type { SerializeFrom } from "@remix-run/node";
import { SectionError } from "~/components/section-error";
import { useTranslation } from "~/components/i18n/i18n-context";
import { formatMoney } from "~/modules/money/format";
import { isPaid, statusLabelKey } from "~/modules/orders/status";
import { formatDate } from "~/modules/partners/format";
import type { loadPartnerPage } from "~/modules/partners/partner-page.server";
import { REFERRAL_STATUS_FILTERS } from "~/modules/partners/page-helpers";

/** The orders of the partner's referrals, searched and filtered, a page at a time (partners spec §2). */
export function ReferralOrders({ screen }: { screen: SerializeFrom<typeof loadPartnerPage> }) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  return (
    <section className="partner-orders" aria-labelledby="partner-orders-title">
      <h2 id="partner-orders-title">{t("partners.orders.title")}</h2>
      <FilterBar search={{ id: "partner-q", value: screen.search, label: t("partners.orders.search") }} applyLabel={t("partners.orders.apply")}>
        <label htmlFor="partner-status" className="visually-hidden">
          {t("partners.orders.status")}
        </label>
        <select id="partner-status" name="status" defaultValue={screen.status ?? ""}>
          <option value="">{t("partners.orders.allStatuses")}</option>
          {REFERRAL_STATUS_FILTERS.map((status) => (
            <option key={status} value={status}>
              {t(statusLabelKey(status))}
            </option>
          ))}
        </select>
        <label htmlFor="partner-activity" className="visually-hidden">
          {t("partners.orders.activity")}
        </label>
        <select id="partner-activity" name="activity" defaultValue={screen.activity ?? ""}>
          <option value="">{t("partners.orders.allActivity")}</option>
          <option value="active">{t("partners.orders.active")}</option>
          <option value="inactive">{t("partners.orders.inactive")}</option>
        </select>
      </FilterBar>

      {screen.ordersFailure ? (
        <SectionError failure={screen.ordersFailure} />
      ) : screen.orders.length === 0 ? (
        <p className="empty">{screen.search || screen.status || screen.activity ? t("partners.orders.nothingFound") : t("partners.orders.empty")}</p>
      ) : (
        <>
          <div className="table-wrap">
            <table className="narrow-cards">
              <thead>
                <tr>
                  <th scope="col">{t("partners.orders.columns.date")}</th>
                  <th scope="col">{t("partners.orders.columns.number")}</th>
                  <th scope="col">{t("partners.orders.columns.client")}</th>
                  <th scope="col">{t("partners.orders.columns.status")}</th>
                  <th scope="col">{t("partners.orders.columns.referral")}</th>
                  <th scope="col" className="num">
                    {t("partners.orders.columns.amount")}
                  </th>
                  <th scope="col" className="num">
                    {t("partners.orders.columns.reward")}
                  </th>
                </tr>
              </thead>
              <tbody>
                {screen.orders.map((order) => (
                  <tr key={order.id} className="referral-order">
                    <td data-label={t("partners.orders.columns.date")}>{formatDate(order.createdAt, language)}</td>
                    <td data-label={t("partners.orders.columns.number")}>
                      <code>{order.number}</code>
                    </td>
                    <td data-label={t("partners.orders.columns.client")}>
                      {order.client ?? "—"}
                      <div className="muted small">{order.email}</div>
                    </td>
                    <td data-label={t("partners.orders.columns.status")} className="referral-status">
                      <span className={`badge badge-${order.status}`}>{t(statusLabelKey(order.status))}</span>
                    </td>
                    <td data-label={t("partners.orders.columns.referral")} className="small">
                      {order.expiresAt === null
                        ? t("partners.orders.awaitingPayment")
                        : order.active
                        ? t("partners.orders.activeUntil", {
                            date: formatDate(order.expiresAt, language),
                          })
                        : t("partners.orders.expiredOn", {
                            date: formatDate(order.expiresAt, language),
                          })}
                    </td>
                    <td data-label={t("partners.orders.columns.amount")} className="num referral-sum">
                      {order.total === null ? "—" : formatMoney(order.total, order.currency, language)}
                      {isPaid(order.status) ? (
                        <div className={order.counts ? "small partner-counts" : "small muted"}>{order.counts ? t("partners.orders.counts") : t("partners.orders.notCounted")}</div>
                      ) : null}
                    </td>
                    <td data-label={t("partners.orders.columns.reward")} className="num referral-reward">
                      {order.reward === null ? "—" : formatMoney(order.reward, "rub", language)}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <p className="hint small">{t("partners.orders.rewardHint")}</p>
        </>
      )}
      <ListPager page={screen.page} pageSize={screen.pageSize} shown={screen.orders.length} total={null} hasMore={screen.hasMore} cursors={"cursors" in screen ? screen.cursors : undefined} />
    </section>
  );
}
