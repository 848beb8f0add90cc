import type { SerializeFrom } from "@remix-run/node";
import { Link } from "@remix-run/react";
import { useTranslation } from "~/components/i18n/i18n-context";
import { SortHeader } from "~/components/lists/sort-header";
import type { loadDashboardPage } from "~/modules/backoffice/dashboard-page.server";
import { DASHBOARD_SORTS } from "~/modules/backoffice/dashboard-tabs";
import { zonedDates } from "~/modules/i18n/clock";
import type { StaffTimeZone } from "~/modules/market/market";
import { formatMoney } from "~/modules/money/format";

/** The compact view: one row per order; its code opens its card (the search by code). */
export function OrdersTable({
  orders,
  sort,
  dir,
  timeZone,
}: {
  orders: SerializeFrom<typeof loadDashboardPage>["rows"];
  sort: keyof typeof DASHBOARD_SORTS | null;
  dir: "asc" | "desc";
  timeZone: StaffTimeZone;
}) {
  const { t, i18n } = useTranslation();
  // Days in the market's zone: an order of 00:30 in Moscow is of that day, as its card says.
  const date = zonedDates(i18n.language, timeZone);
  return (
    <div className="table-wrap">
      <table className="bo-orders-table">
        <caption className="visually-hidden">
          {t("bo.orders.ordersCaption")}
        </caption>
        <thead>
          <tr>
            <th scope="col">{t("bo.orders.colCode")}</th>
            <SortHeader
              sortKey="date"
              current={sort}
              dir={dir}
              first={DASHBOARD_SORTS.date}
            >
              {t("bo.orders.colDate")}
            </SortHeader>
            <th scope="col">{t("bo.orders.colClinic")}</th>
            <th scope="col" className="num">
              {t("bo.orders.colPatients")}
            </th>
            <SortHeader
              sortKey="total"
              current={sort}
              dir={dir}
              first={DASHBOARD_SORTS.total}
              className="num"
            >
              {t("bo.orders.colTotal")}
            </SortHeader>
            <SortHeader
              sortKey="status"
              current={sort}
              dir={dir}
              first={DASHBOARD_SORTS.status}
            >
              {t("bo.orders.colStatus")}
            </SortHeader>
            <th scope="col">{t("bo.orders.colPaid")}</th>
          </tr>
        </thead>
        <tbody>
          {orders.map((order) => (
            <tr key={order.id}>
              <th scope="row">
                <Link to={`/backoffice/orders/${order.id}`}>
                  {order.number}
                </Link>
                {order.unread > 0 ? (
                  <>
                    {" "}
                    <Link to={`/backoffice/orders/${order.id}/thread`} className="badge badge-unread">
                      {t("thread.unread", { count: order.unread })}
                    </Link>
                  </>
                ) : null}
              </th>
              <td>{date(order.createdAt)}</td>
              <td>{order.clinic || "—"}</td>
              <td className="num">{order.patientCount}</td>
              <td className="num">
                {order.total === null
                  ? "—"
                  : formatMoney(order.total, order.currency, i18n.language)}
              </td>
              <td>
                <span className={`badge badge-${order.status}`}>
                  {t(`orderStatus.${order.status}`)}
                </span>
                {order.transferInvoice ? (
                  <span className="badge badge-transfer">
                    {t("bo.orders.transferAwaited", { number: order.transferInvoice })}
                  </span>
                ) : null}
              </td>
              <td>
                {order.paidAt ? date(order.paidAt) : "—"}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
