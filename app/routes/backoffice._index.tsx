import type {
  ActionFunctionArgs,
  LoaderFunctionArgs,
  MetaFunction,
} from "@remix-run/node";
import {
  Form,
  Link,
  useActionData,
  useLoaderData,
  useLocation,
  useNavigation,
} from "@remix-run/react";
import { useTranslation } from "~/components/i18n/i18n-context";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { SectionError } from "~/components/section-error";
import {
  dashboardPageAction,
  loadDashboardPage,
} from "~/modules/backoffice/dashboard-page.server";
import { OrderCard } from "~/components/backoffice/order-card";
import { RefusedElsewhere } from "~/components/backoffice/order-card-actions";
import { PlainNavigation } from "~/components/lists/plain-navigation";
import { StatisticsCards } from "~/components/backoffice/statistics-cards";
import { OrdersTable } from "~/components/backoffice/orders-table";
import { useStaffTimeZone } from "~/components/backoffice/staff-clock";
import { CodeSpaceCard } from "~/components/backoffice/code-space-card";
import { FilterBar } from "~/components/lists/filter-bar";
import { ListPager } from "~/components/lists/list-pager";
import { listHref } from "~/modules/http/request/list-query";
import { isShortSearch } from "~/modules/orders/search-length";
import {
  DASHBOARD_SORTS,
  DASHBOARD_TABS,
  type DashboardTab,
} from "~/modules/backoffice/dashboard-tabs";
import { numberFormat } from "~/modules/i18n/intl";
import type { PageHandle } from "~/modules/layout/layout";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data?.title },
  { name: "robots", content: "noindex" },
];

/** The first thing a keyboard reaches: a link past the header, statistics and filters to the orders. */
export const handle: PageHandle = { skipLink: { href: "#orders-list", text: "bo.orders.skipToList" } };

/** The orders dashboard: its data and its payment intents are in dashboard-page.server.ts. */
export async function loader(args: LoaderFunctionArgs) {
  return loadDashboardPage(args);
}

export async function action(args: ActionFunctionArgs) {
  return dashboardPageAction(args);
}

export default function BackofficeOrders() {
  const {
    filter,
    statistics,
    statisticsFailure,
    statisticsFolded,
    ordersFailure,
    patientsFailure,
    orders,
    rows,
    hasMore,
    cursors,
    statusForms,
    counts,
    countCap,
    pageSize,
  } = useLoaderData<typeof loader>();
  const { t, i18n } = useTranslation();
  const location = useLocation();
  const timeZone = useStaffTimeZone();
  // The orders on this page: cards, or rows in the table view.
  const shown = filter.view === "table" ? rows.length : orders.length;
  const busy = useNavigation().state === "submitting";
  const back = `${location.pathname}${location.search.replace(/^\?index(&|$)/, "?").replace(/\?$/, "")}`;
  const filtered = Boolean(
    filter.search ||
      filter.showEmpty ||
      filter.from ||
      filter.to ||
      filter.market
  );
  // A link to this page with some of its query changed (a tab); the list starts again at its first page.
  const linkWith = (changes: Record<string, string | null>) =>
    listHref("/backoffice", location.search, changes);
  const count = (tab: DashboardTab) =>
    counts
      ? counts[tab] > countCap
        ? `${numberFormat(i18n.language).format(countCap)}+`
        : numberFormat(i18n.language).format(counts[tab])
      : null;
  const tabLabel = (tab: DashboardTab) =>
    tab === "work"
      ? t("bo.orders.tabWork")
      : tab === "waiting"
      ? t("bo.orders.tabWaiting")
      : tab === "all"
      ? t("bo.orders.tabAll")
      : t(`orderStatus.${tab}`);
  // "21–30 из 240 · страниц: 24": the tab's orders (without a search, which the tabs do not count).
  const total = counts && !filter.search ? counts[filter.tab] : null;
  // The view and statistics buttons post here and come back to this very list.
  // (After a refused status change the address is that post's, which names the index route already.)
  const listQuery = new URLSearchParams(location.search);
  listQuery.delete("index");
  const choiceAction = `/backoffice?index${listQuery.size ? `&${listQuery}` : ""}`;
  // A card's status change posts here too, and a refusal comes back to its card (ADR 105).
  const statusAction = choiceAction;
  const answered = useActionData<typeof action>();
  const refused = answered && "statusReply" in answered ? answered.statusReply : undefined;

  return (
    <section className="bo-page bo-dashboard">
      <div className="bo-dashboard-head">
        <h1>{t("backoffice.ordersTitle")}</h1>
        <nav className="bo-head-links" aria-label={t("bo.orders.tools")}>
          <Link to="/backoffice/files">{t("bo.files.title")}</Link>
          <Link to="/backoffice/test">{t("bo.trackerTest.title")}</Link>
        </nav>
        <Form
          method="post"
          action={choiceAction}
        >
          <button
            type="submit"
            name="intent"
            value="refresh_payments"
            className="button button-secondary button-small"
            disabled={busy}
          >
            {t("payments.backoffice.refresh")}
          </button>
        </Form>
      </div>

      {/* Folded or not, remembered for the staff member (ADR 067); folded statistics are not read at all. */}
      <Form method="post" action={choiceAction} className="bo-stats-toggle">
        <button
          type="submit"
          name="intent"
          value={statisticsFolded ? "unfold_statistics" : "fold_statistics"}
          className="link-button"
          aria-expanded={!statisticsFolded}
          aria-controls={statisticsFolded ? undefined : "bo-statistics"}
        >
          {statisticsFolded ? t("bo.stats.unfold") : t("bo.stats.fold")}
        </button>
      </Form>
      {statistics ? (
        <div id="bo-statistics" className="bo-stats-fold">
          <StatisticsCards statistics={statistics} />
          <CodeSpaceCard codes={statistics.codes} />
        </div>
      ) : null}
      {statisticsFailure ? <SectionError failure={statisticsFailure} /> : null}

      {/* The status filter as tabs that carry their counts (ADR 066); "Все" is the specification's view. */}
      <nav className="tabs bo-status-tabs" aria-label={t("bo.orders.tabs")}>
        {DASHBOARD_TABS.map((tab) => (
          <Link
            key={tab}
            to={linkWith({ status: tab === "work" ? null : tab })}
            className={filter.tab === tab ? "active" : ""}
            aria-current={filter.tab === tab ? "page" : undefined}
          >
            {tabLabel(tab)}
            {count(tab) !== null && !filter.search ? (
              <span className="bo-tab-count">{` ${count(tab)}`}</span>
            ) : null}
          </Link>
        ))}
      </nav>

      <FilterBar
        label={t("bo.orders.filters")}
        className="bo-order-filters"
        keep={{
          status: filter.tab !== "work" ? filter.tab : null,
          view: filter.viewAsked,
          sort: filter.sort !== "date" ? filter.sort : null,
          dir: filter.dir !== DASHBOARD_SORTS[filter.sort] ? filter.dir : null,
        }}
        search={{
          id: "orders-q",
          value: filter.search,
          label: t("bo.orders.search"),
        }}
        dates={{
          from: filter.from,
          to: filter.to,
          fromLabel: t("bo.orders.from"),
          toLabel: t("bo.orders.to"),
        }}
        market={{
          id: "orders-market",
          value: filter.market,
          label: t("bo.orders.market"),
          allLabel: t("bo.orders.allMarkets"),
          domesticLabel: t("bo.orders.marketDomestic"),
          internationalLabel: t("bo.orders.marketInternational"),
        }}
        resetTo={filtered || filter.tab !== "work" ? "/backoffice" : null}
        applyLabel={t("bo.orders.apply")}
        resetLabel={t("bo.orders.reset")}
      >
        <label className="checkbox bo-toggle">
          <input
            type="checkbox"
            name="empty"
            value="1"
            defaultChecked={filter.showEmpty}
          />
          <span>{t("bo.orders.showEmpty")}</span>
        </label>
      </FilterBar>
      {isShortSearch(filter.search) ? (
        <p className="hint bo-filter-hint">{t("bo.orders.shortSearch")}</p>
      ) : null}

      <div className="bo-list-head">
        <ListPager
          page={filter.page}
          pageSize={pageSize}
          shown={shown}
          total={total}
          cap={countCap}
          hasMore={hasMore}
          summaryOnly
        />
        <Form
          method="post"
          action={choiceAction}
          className="bo-view-switch"
          aria-label={t("bo.orders.view")}
        >
          <button
            type="submit"
            name="intent"
            value="show_cards"
            className="link-button"
            aria-pressed={filter.view === "cards"}
          >
            {t("bo.orders.viewCards")}
          </button>
          <button
            type="submit"
            name="intent"
            value="show_table"
            className="link-button"
            aria-pressed={filter.view === "table"}
          >
            {t("bo.orders.viewTable")}
          </button>
        </Form>
      </div>

      {/* The skip link's target: focus lands here, and the next Tab is the first order's. */}
      <div id="orders-list" tabIndex={-1} className="bo-orders-list">
      {ordersFailure ? <SectionError failure={ordersFailure} /> : null}
      {patientsFailure ? <SectionError failure={patientsFailure} /> : null}
      {/* A change of an order this page does not show (gone from the list, or a forged id): said above the list. */}
      {refused && !orders.some((order) => order.id === refused.orderId) ? <RefusedElsewhere reply={refused.reply} /> : null}
      {ordersFailure ? null : shown === 0 ? (
        <p className="empty">
          {filtered || filter.tab !== "all"
            ? t("bo.orders.nothingFound")
            : t("backoffice.noOrders")}
        </p>
      ) : filter.view === "table" ? (
        <OrdersTable
          orders={rows}
          sort={filter.search ? null : filter.sort}
          dir={filter.dir}
          timeZone={timeZone}
        />
      ) : (
        <PlainNavigation className="bo-orders">
          {orders.map((order) => (
            <OrderCard
              key={order.id}
              order={order}
              number={order.number}
              back={back}
              canPaymentLink={order.canPaymentLink}
              canTracker={order.canTracker}
              statusForms={statusForms}
              timeZone={timeZone}
              compact
              statusAction={statusAction}
              statusReply={refused?.orderId === order.id ? refused.reply : undefined}
            />
          ))}
        </PlainNavigation>
      )}
      </div>
      <ListPager
        page={filter.page}
        pageSize={pageSize}
        shown={shown}
        total={total}
        cap={countCap}
        hasMore={hasMore}
        cursors={cursors}
      />
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
