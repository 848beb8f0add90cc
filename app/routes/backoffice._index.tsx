import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData, useLocation, useNavigation } from "@remix-run/react";
import { useTranslation } from "~/modules/i18n/i18n-context";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { SectionError } from "~/components/section-error";
import { loadSection, sectionData, sectionFailure } from "~/modules/http/section.server";
import { requireStaff } from "~/modules/auth/guards.server";
import { listDashboardOrders, loadStatistics, parseDashboardFilter } from "~/modules/backoffice/dashboard.server";
import { OrderCard, StatisticsCards } from "~/modules/backoffice/dashboard-ui";
import { Pagination } from "~/modules/backoffice/ui";
import { getDb } from "~/modules/db/db.server";
import { getTranslator } from "~/modules/i18n/i18n.server";
import { shortOrderNumber } from "~/modules/orders/orders.server";
import { ORDER_STATUSES } from "~/modules/orders/status";
import { canSendToTracker } from "~/modules/tracker/order-request.server";
import { getConfig } from "~/modules/config/config.server";
import { publicOrigin } from "~/modules/market/market.server";
import { redirectWithToast } from "~/modules/http/toast.server";
import { findOrder } from "~/modules/orders/orders.server";
import { canHavePaymentLink, paymentLinkPath, refreshPendingPayments } from "~/modules/payments/payments.server";
import { readFormData } from "~/modules/http/request.server";
import { logger } from "~/modules/log/logger.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }, { name: "robots", content: "noindex" }];

/**
 * The orders dashboard (staff side §2 "/backoffice"): statistics of the last 30 days, a status
 * filter, the "show empty orders" switch, order cards with their actions, 10 cards a page (the page stays within the 50 KB budget).
 * Status changes post to /backoffice/orders/:id/status, deletion to /backoffice/orders/:id/delete,
 * the tracker opens /backoffice/orders/:id/tracker; payments' actions stay in this route's action.
 */

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireStaff(request, context);
  const { t } = await getTranslator(request);
  const filter = parseDashboardFilter(new URL(request.url).searchParams);
  const db = await getDb();
  // Each part of the page loads on its own: a failing query shows its message in place (ADR 026).
  const [statisticsSection, ordersSection] = await Promise.all([
    loadSection("back-office: loading statistics", { message: "failures.statistics" }, () => loadStatistics(db)),
    loadSection("back-office: loading orders", { message: "failures.ordersLoad" }, () => listDashboardOrders(db, filter)),
  ]);
  const { orders, hasMore, patientsFailure } = sectionData(ordersSection, {
    orders: [],
    hasMore: false,
    patientsFailure: null,
  });
  return {
    title: t("backoffice.title"),
    filter,
    statistics: sectionData(statisticsSection, null),
    statisticsFailure: sectionFailure(statisticsSection),
    ordersFailure: sectionFailure(ordersSection),
    patientsFailure,
    hasMore,
    orders: orders.map((order) => ({
      ...order,
      number: shortOrderNumber(order.id),
      canPaymentLink: canHavePaymentLink({
        status: order.status,
        total_cost: order.total,
      }),
      canTracker: canSendToTracker(order.status),
    })),
  };
}

/** Payments: "refresh statuses" checks every pending order with its provider; a payment link per order. */
export async function action({ request, context }: ActionFunctionArgs) {
  await requireStaff(request, context);
  const form = await readFormData(request);
  const intent = form.get("intent");
  const db = await getDb();
  const config = getConfig();
  const params = new URL(request.url).searchParams;
  params.delete("index");
  const back = `/backoffice${params.size ? `?${params}` : ""}`;
  if (intent === "refresh_payments") {
    try {
      const { checked, paid } = await refreshPendingPayments(db, config);
      if (checked === 0)
        return redirectWithToast(back, {
          type: "info",
          title: "payments.backoffice.refreshEmpty",
        });
      if (paid === 0)
        return redirectWithToast(back, {
          type: "info",
          title: "payments.backoffice.refreshNone",
        });
      return redirectWithToast(back, {
        type: "success",
        title: "payments.backoffice.refreshDone",
        values: { count: paid },
      });
    } catch (error) {
      logger.error("payment status refresh failed:", error);
      return redirectWithToast(back, {
        type: "error",
        title: "payments.backoffice.errorTitle",
        description: "payments.backoffice.refreshFailed",
      });
    }
  }
  if (intent === "payment_link") {
    const order = await findOrder(db, String(form.get("orderId") ?? ""));
    if (!order) return redirectWithToast(back, { type: "error", title: "payments.backoffice.errorTitle", description: "payments.backoffice.linkFailed" });
    if (!canHavePaymentLink(order)) return redirectWithToast(back, { type: "error", title: "payments.backoffice.errorTitle", description: "payments.backoffice.noAmount" });
    const url = `${publicOrigin(order.market)}${paymentLinkPath(config, order.id)}`;
    return redirectWithToast(back, { type: "success", title: "payments.backoffice.linkCreated", lines: [{ key: "payments.backoffice.linkFor", values: { number: shortOrderNumber(order.id), url } }] });
  }
  return redirectWithToast(back, {
    type: "error",
    title: "payments.backoffice.errorTitle",
    description: "payments.backoffice.linkFailed",
  });
}

export default function BackofficeOrders() {
  const { filter, statistics, statisticsFailure, ordersFailure, patientsFailure, orders, hasMore } = useLoaderData<typeof loader>();
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

      {ordersFailure ? <SectionError failure={ordersFailure} /> : null}
      {patientsFailure ? <SectionError failure={patientsFailure} /> : null}
      {ordersFailure ? null : orders.length === 0 ? (
        <p className="empty">{filtered ? t("bo.orders.nothingFound") : t("backoffice.noOrders")}</p>
      ) : (
        <div className="bo-orders">
          {orders.map((order) => (
            <OrderCard key={order.id} order={order} number={order.number} back={back} canPaymentLink={order.canPaymentLink} canTracker={order.canTracker} />
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
