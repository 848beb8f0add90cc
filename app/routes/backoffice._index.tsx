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
import { ORDER_STATUSES } from "~/modules/orders/status";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }, { name: "robots", content: "noindex" }];

/** The orders dashboard: its data and its payment intents are in dashboard-page.server.ts. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  return loadDashboardPage(request, context);
}

export async function action({ request, context }: ActionFunctionArgs) {
  return dashboardPageAction(request, context);
}

export default function BackofficeOrders() {
  const { filter, statistics, statisticsFailure, ordersFailure, patientsFailure, orders, hasMore, statusForms } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const location = useLocation();
  const busy = useNavigation().state === "submitting";
  const back = `${location.pathname}${location.search}`;
  const filtered = Boolean(filter.status || filter.search || filter.showEmpty);

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

      {statistics ? <StatisticsCards statistics={statistics} /> : null}
      {statistics ? <CodeSpaceCard codes={statistics.codes} /> : null}
      {statisticsFailure ? <SectionError failure={statisticsFailure} /> : null}

      <Form method="get" className="filters bo-order-filters" role="search" aria-label={t("bo.orders.filters")}>
        <label htmlFor="orders-q" className="visually-hidden">
          {t("bo.orders.search")}
        </label>
        <input id="orders-q" type="search" name="q" defaultValue={filter.search} placeholder={t("bo.orders.search")} />
        <label htmlFor="orders-status" className="visually-hidden">
          {t("bo.orders.statusFilter")}
        </label>
        <select id="orders-status" name="status" defaultValue={filter.status ?? ""}>
          <option value="">{t("bo.orders.allStatuses")}</option>
          {ORDER_STATUSES.map((status) => (
            <option key={status} value={status}>
              {t(`orderStatus.${status}`)}
            </option>
          ))}
        </select>
        <label className="checkbox bo-toggle">
          <input type="checkbox" name="empty" value="1" defaultChecked={filter.showEmpty} />
          <span>{t("bo.orders.showEmpty")}</span>
        </label>
        <button type="submit" className="button button-secondary button-small">
          {t("bo.orders.apply")}
        </button>
        {filtered ? (
          <Link to="/backoffice" className="bo-reset">
            {t("bo.orders.reset")}
          </Link>
        ) : null}
      </Form>
      {isShortSearch(filter.search) ? <p className="hint bo-filter-hint">{t("bo.orders.shortSearch")}</p> : null}

      {ordersFailure ? <SectionError failure={ordersFailure} /> : null}
      {patientsFailure ? <SectionError failure={patientsFailure} /> : null}
      {ordersFailure ? null : orders.length === 0 ? (
        <p className="empty">{filtered ? t("bo.orders.nothingFound") : t("backoffice.noOrders")}</p>
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

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
