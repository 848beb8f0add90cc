import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData, useLocation, useNavigation } from "@remix-run/react";
import { useTranslation } from "~/modules/i18n/i18n-context";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { SectionError } from "~/components/section-error";
import { dashboardPageAction, loadDashboardPage } from "~/modules/backoffice/dashboard-page.server";
import { OrderCard } from "~/components/backoffice/order-card";
import { StatisticsCards } from "~/components/backoffice/statistics-cards";
import { CodeSpaceCard } from "~/components/backoffice/code-space-card";
import { Pagination } from "~/modules/backoffice/ui";
import { isShortSearch } from "~/modules/orders/search-length";
import { DASHBOARD_TABS, type DashboardTab } from "~/modules/backoffice/dashboard-tabs";
import { dateTimeFormat, numberFormat } from "~/modules/i18n/intl";
import { formatMoney } from "~/modules/money/format";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }, { name: "robots", content: "noindex" }];

/** The orders dashboard: its data and its payment intents are in dashboard-page.server.ts. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  return loadDashboardPage(request, context);
}

export async function action({ request, context }: ActionFunctionArgs) {
  return dashboardPageAction(request, context);
}

export default function BackofficeOrders() {
  const { filter, statistics, statisticsFailure, ordersFailure, patientsFailure, orders, hasMore, statusForms, counts, countCap, pageSize } = useLoaderData<typeof loader>();
  const { t, i18n } = useTranslation();
  const location = useLocation();
  const busy = useNavigation().state === "submitting";
  const back = `${location.pathname}${location.search}`;
  const filtered = Boolean(filter.search || filter.showEmpty || filter.from || filter.to || filter.market);
  // A link to this page with some of its query changed (a tab, the view); the page starts again at 1.
  const linkWith = (changes: Record<string, string | null>) => {
    const next = new URLSearchParams(location.search);
    next.delete("page");
    next.delete("index");
    for (const [name, value] of Object.entries(changes)) {
      if (value === null) next.delete(name);
      else next.set(name, value);
    }
    const search = next.toString();
    return search ? `/backoffice?${search}` : "/backoffice";
  };
  const count = (tab: DashboardTab) => (counts ? (counts[tab] > countCap ? `${numberFormat(i18n.language).format(countCap)}+` : numberFormat(i18n.language).format(counts[tab])) : null);
  const tabLabel = (tab: DashboardTab) => (tab === "work" ? t("bo.orders.tabWork") : tab === "all" ? t("bo.orders.tabAll") : t(`orderStatus.${tab}`));
  // "21–30 из 240 · страниц: 24": the tab's orders (without a search, which the tabs do not count).
  const total = counts && !filter.search ? counts[filter.tab] : null;
  const first = (filter.page - 1) * pageSize + 1;

  return (
    <section className="bo-page bo-dashboard">
      <div className="bo-dashboard-head">
        <h1>{t("backoffice.ordersTitle")}</h1>
        <nav className="bo-head-links" aria-label={t("bo.orders.tools")}>
          <Link to="/backoffice/files">{t("bo.files.title")}</Link>
          <Link to="/backoffice/test">{t("bo.trackerTest.title")}</Link>
        </nav>
        <Form method="post" action={`/backoffice?index${location.search ? `&${location.search.slice(1)}` : ""}`}>
          <button type="submit" name="intent" value="refresh_payments" className="button button-secondary button-small" disabled={busy}>
            {t("payments.backoffice.refresh")}
          </button>
        </Form>
      </div>

      {statistics ? (
        <details className="bo-stats-fold" open>
          <summary>{t("bo.stats.title")}</summary>
          <StatisticsCards statistics={statistics} />
          <CodeSpaceCard codes={statistics.codes} />
        </details>
      ) : null}
      {statisticsFailure ? <SectionError failure={statisticsFailure} /> : null}

      {/* The status filter as tabs that carry their counts (ADR 066); "Все" is the specification's view. */}
      <nav className="tabs bo-status-tabs" aria-label={t("bo.orders.tabs")}>
        {DASHBOARD_TABS.map((tab) => (
          <Link key={tab} to={linkWith({ status: tab === "work" ? null : tab })} className={filter.tab === tab ? "active" : ""} aria-current={filter.tab === tab ? "page" : undefined}>
            {tabLabel(tab)}
            {count(tab) !== null && !filter.search ? <span className="bo-tab-count">{` ${count(tab)}`}</span> : null}
          </Link>
        ))}
      </nav>

      <Form method="get" className="filters bo-order-filters" role="search" aria-label={t("bo.orders.filters")}>
        {filter.tab !== "work" ? <input type="hidden" name="status" value={filter.tab} /> : null}
        {filter.view === "table" ? <input type="hidden" name="view" value="table" /> : null}
        <label htmlFor="orders-q" className="visually-hidden">
          {t("bo.orders.search")}
        </label>
        <input id="orders-q" type="search" name="q" defaultValue={filter.search} placeholder={t("bo.orders.search")} />
        <label className="bo-date">
          <span>{t("bo.orders.from")}</span>
          <input type="date" name="from" defaultValue={filter.from ?? ""} />
        </label>
        <label className="bo-date">
          <span>{t("bo.orders.to")}</span>
          <input type="date" name="to" defaultValue={filter.to ?? ""} />
        </label>
        <label htmlFor="orders-market" className="visually-hidden">
          {t("bo.orders.market")}
        </label>
        <select id="orders-market" name="market" defaultValue={filter.market ?? ""}>
          <option value="">{t("bo.orders.allMarkets")}</option>
          <option value="domestic">{t("bo.orders.marketDomestic")}</option>
          <option value="international">{t("bo.orders.marketInternational")}</option>
        </select>
        <label className="checkbox bo-toggle">
          <input type="checkbox" name="empty" value="1" defaultChecked={filter.showEmpty} />
          <span>{t("bo.orders.showEmpty")}</span>
        </label>
        <button type="submit" className="button button-secondary button-small">
          {t("bo.orders.apply")}
        </button>
        {filtered || filter.tab !== "work" ? (
          <Link to="/backoffice" className="bo-reset">
            {t("bo.orders.reset")}
          </Link>
        ) : null}
      </Form>
      {isShortSearch(filter.search) ? <p className="hint bo-filter-hint">{t("bo.orders.shortSearch")}</p> : null}

      <div className="bo-list-head">
        {total !== null && orders.length > 0 ? (
          <p className="muted small">
            {t("bo.orders.shown", {
              first,
              last: first + orders.length - 1,
              total: total > countCap ? `${numberFormat(i18n.language).format(countCap)}+` : numberFormat(i18n.language).format(total),
              pages: total > countCap ? `${Math.ceil(countCap / pageSize)}+` : Math.max(1, Math.ceil(total / pageSize)),
            })}
          </p>
        ) : (
          <span />
        )}
        <nav className="bo-view-switch" aria-label={t("bo.orders.viewTable")}>
          <Link to={linkWith({ view: null })} aria-current={filter.view === "cards" ? "page" : undefined}>
            {t("bo.orders.viewCards")}
          </Link>
          <Link to={linkWith({ view: "table" })} aria-current={filter.view === "table" ? "page" : undefined}>
            {t("bo.orders.viewTable")}
          </Link>
        </nav>
      </div>

      {ordersFailure ? <SectionError failure={ordersFailure} /> : null}
      {patientsFailure ? <SectionError failure={patientsFailure} /> : null}
      {ordersFailure ? null : orders.length === 0 ? (
        <p className="empty">{filtered || filter.tab !== "all" ? t("bo.orders.nothingFound") : t("backoffice.noOrders")}</p>
      ) : filter.view === "table" ? (
        <OrdersTable orders={orders} />
      ) : (
        <div className="bo-orders">
          {orders.map((order) => (
            <OrderCard key={order.id} order={order} number={order.number} back={back} canPaymentLink={order.canPaymentLink} canTracker={order.canTracker} statusForms={statusForms} />
          ))}
        </div>
      )}
      <Pagination page={filter.page} hasMore={hasMore} />
    </section>
  );
}

/** The compact view: one row per order; its code opens its card (the search by code). */
function OrdersTable({ orders }: { orders: ReturnType<typeof useLoaderData<typeof loader>>["orders"] }) {
  const { t, i18n } = useTranslation();
  const dates = dateTimeFormat(i18n.language === "ru" ? "ru-RU" : i18n.language, { dateStyle: "short" });
  return (
    <div className="table-wrap">
      <table className="bo-orders-table">
        <caption className="visually-hidden">{t("bo.orders.ordersCaption")}</caption>
        <thead>
          <tr>
            <th scope="col">{t("bo.orders.colCode")}</th>
            <th scope="col">{t("bo.orders.colDate")}</th>
            <th scope="col">{t("bo.orders.colClinic")}</th>
            <th scope="col" className="num">
              {t("bo.orders.colPatients")}
            </th>
            <th scope="col" className="num">
              {t("bo.orders.colTotal")}
            </th>
            <th scope="col">{t("bo.orders.colStatus")}</th>
            <th scope="col">{t("bo.orders.colPaid")}</th>
          </tr>
        </thead>
        <tbody>
          {orders.map((order) => (
            <tr key={order.id}>
              <th scope="row">
                <Link to={`/backoffice?q=${order.id.slice(0, 8)}`}>{order.number}</Link>
              </th>
              <td>{dates.format(new Date(order.createdAt))}</td>
              <td>{order.fullName || order.email || "—"}</td>
              <td className="num">{order.patients.length}</td>
              <td className="num">{order.total === null ? "—" : formatMoney(order.total, order.currency, i18n.language)}</td>
              <td>
                <span className={`badge badge-${order.status}`}>{t(`orderStatus.${order.status}`)}</span>
              </td>
              <td>{order.paidAt ? dates.format(new Date(order.paidAt)) : "—"}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
