import type { LoaderFunctionArgs, ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { requireStaff, type Staff } from "~/modules/auth/guards.server";
import { listHref } from "~/modules/http/request/list-query";
import {
  DEFAULT_PREFERENCES,
  rememberPreferences,
  type StaffPreferences,
  staffPreferences,
} from "./staff-preferences.server";
import { type AppConfig, getConfig } from "~/modules/config/config.server";
import { type DB, getDb } from "~/modules/db/db.server";
import { oldPageRedirect } from "~/modules/db/keyset.server";
import { intentHandler } from "~/modules/http/forms/intents";
import { getRequestTranslator } from "~/modules/http/request/request-context.server";
import {
  intentValue,
  readSubmission,
  submittedIntent,
} from "~/modules/http/forms/submission.server";
import { dashboardSchema } from "./order-forms.server";
import { tabOrder } from "./dashboard-tabs";
import { statusChangeOnPage, type StatusReplyAnswer } from "./status-change.server";
import type { Submission } from "@conform-to/react";
import type * as z from "zod/mini";
import {
  loadSection,
  sectionData,
  sectionFailure,
} from "~/modules/http/answers/section.server";
import { redirectWithToast } from "~/modules/http/answers/toast.server";
import { logger } from "~/modules/log/logger.server";
import { publicOrigin } from "~/modules/market/market.server";
import { findOrder, shortOrderNumber } from "~/modules/orders/orders.server";
import { workListCursorCasts } from "~/modules/orders/work-list.server";
import {
  canHavePaymentLink,
  paymentLinkPath,
} from "~/modules/payments/payment-links.server";
import { refreshPendingPayments } from "~/modules/payments/reconciliation.server";
import { canSendToTracker } from "~/modules/tracker/order-request.server";
import {
  COUNT_CAP,
  countDashboardTabs,
  DASHBOARD_PAGE_SIZE,
  listDashboardOrders,
  loadStatistics,
  parseDashboardFilter,
} from "./dashboard.server";

/**
 * The orders dashboard (staff side §2 "/backoffice"): statistics of the last 30 days, a status
 * filter, the "show empty orders" switch, order cards with their actions, 10 cards a page (the page stays within the 50 KB budget).
 * Status changes post to /backoffice/orders/:id/status, deletion to /backoffice/orders/:id/delete,
 * the tracker opens /backoffice/orders/:id/tracker; payments' actions are this page's intents.
 */

export async function loadDashboardPage({ request, context }: LoaderFunctionArgs) {
  const staff = await requireStaff(request, context);
  const t = await getRequestTranslator(request, context);
  const db = await getDb();
  const preferences = await loadSection(
    "back-office: loading the staff member's preferences",
    { message: "failures.statistics" },
    () => staffPreferences(db, staff.user?.id ?? null)
  );
  const remembered = sectionData(preferences, DEFAULT_PREFERENCES);
  const filter = parseDashboardFilter(request, remembered.ordersView);
  // An old `?page=N` address goes to its page's cursor first (ADR 091), walked by the table's rows (lighter than the cards).
  const moved = await oldPageRedirect(new URL(request.url), filter, workListCursorCasts(tabOrder(filter.tab, filter.sort, filter.dir).sort), (after) => listDashboardOrders(db, { ...filter, view: "table", after, before: null }));
  if (moved) throw moved;
  // Each part of the page loads on its own: a failing query shows its message in place (ADR 026).
  // Folded statistics are not even read.
  const [statisticsSection, ordersSection, countsSection] = await Promise.all([
    remembered.statisticsFolded
      ? null
      : loadSection(
          "back-office: loading statistics",
          { message: "failures.statistics" },
          () => loadStatistics(db)
        ),
    loadSection(
      "back-office: loading orders",
      { message: "failures.ordersLoad" },
      () => listDashboardOrders(db, filter)
    ),
    loadSection(
      "back-office: counting orders",
      { message: "failures.ordersLoad" },
      () => countDashboardTabs(db, filter)
    ),
  ]);
  const { cards, rows, hasMore, patientsFailure, cursors } = sectionData(
    ordersSection,
    {
      cards: [],
      rows: [],
      hasMore: false,
      patientsFailure: null,
      cursors: { next: null, previous: null },
    }
  );
  const config = getConfig();
  return {
    title: t("backoffice.title"),
    filter,
    /** How the cards change a status (ADR 062): the carriers offered with "Отправлен", and whether a jump asks first. */
    statusForms: {
      carriers: config.carriers.map(({ id, name, trackingUrl }) => ({
        id,
        name,
        trackingUrl,
      })),
      confirmJumps: config.confirmStatusJumps,
    },
    statistics: statisticsSection ? sectionData(statisticsSection, null) : null,
    statisticsFailure: statisticsSection
      ? sectionFailure(statisticsSection)
      : null,
    statisticsFolded: remembered.statisticsFolded,
    /** Whether the choices are kept for this staff member (signed in) or only in the address (the shared password). */
    remembers: staff.user !== null,
    ordersFailure: sectionFailure(ordersSection),
    patientsFailure,
    hasMore,
    cursors,
    /** Each tab's orders under the filter (not the search), up to COUNT_CAP; null when they could not be counted. */
    counts: sectionData(countsSection, null),
    countCap: COUNT_CAP,
    pageSize: DASHBOARD_PAGE_SIZE,
    /** The cards view's orders (empty in the table view) … */
    orders: cards.map((order) => ({
      ...order,
      number: shortOrderNumber(order.id),
      canPaymentLink: canHavePaymentLink({
        status: order.status,
        total_cost: order.total,
      }),
      canTracker: canSendToTracker(order.status),
    })),
    /** … and the table view's rows (empty in the cards view). */
    rows: rows.map((row) => ({ ...row, number: shortOrderNumber(row.id) })),
  };
}

interface DashboardIntentArgs {
  staff: Staff;
  db: DB;
  config: AppConfig;
  submission: Submission<z.output<typeof dashboardSchema>, string[]>;
  /** The dashboard with the filter the form was posted from. */
  back: string;
}

/** "Refresh statuses": checks every pending order with its payment provider. */
async function refreshPayments({ db, config, back }: DashboardIntentArgs) {
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

/** A payment link for one order, shown in a toast for staff to send on. */
async function createPaymentLink({
  db,
  config,
  submission,
  back,
}: DashboardIntentArgs) {
  const order = await findOrder(
    db,
    intentValue(submission, "payment_link")?.orderId ?? ""
  );
  if (!order)
    return redirectWithToast(back, {
      type: "error",
      title: "payments.backoffice.errorTitle",
      description: "payments.backoffice.linkFailed",
    });
  if (!canHavePaymentLink(order))
    return redirectWithToast(back, {
      type: "error",
      title: "payments.backoffice.errorTitle",
      description: "payments.backoffice.noAmount",
    });
  const url = `${publicOrigin(order.market)}${paymentLinkPath(
    config,
    order.id
  )}`;
  return redirectWithToast(back, {
    type: "success",
    title: "payments.backoffice.linkCreated",
    lines: [
      {
        key: "payments.backoffice.linkFor",
        values: { number: shortOrderNumber(order.id), url },
      },
    ],
  });
}

/**
 * Cards or table, statistics folded or not: remembered for a signed-in staff member (ADR 067); the
 * address keeps the view either way, so staff who came in with the shared password keep it too.
 */
const rememberChoice = (change: Partial<StaffPreferences>) =>
  async function remember({ staff, db, back }: DashboardIntentArgs) {
    if (staff.user) await rememberPreferences(db, staff.user.id, change);
    const [path, query = ""] = back.split("?");
    const params = new URLSearchParams(query);
    if (change.ordersView) params.set("view", change.ordersView);
    return redirect(params.size ? `${path}?${params}` : path);
  };

/** An unknown intent answers as the page always has: back to the dashboard with the payment link's error. */
async function unknownIntent({ back }: DashboardIntentArgs) {
  return redirectWithToast(back, {
    type: "error",
    title: "payments.backoffice.errorTitle",
    description: "payments.backoffice.linkFailed",
  });
}

/** A card's status change (ADR 105): made, back to this page; refused, the card's form shows why with what was typed. */
async function changeStatus({ staff, submission, back }: DashboardIntentArgs) {
  return statusChangeOnPage(submission, intentValue(submission, "status"), staff.actorLabel, back);
}

const DASHBOARD_INTENTS: Record<string, (args: DashboardIntentArgs) => Promise<Response | StatusReplyAnswer>> = {
  refresh_payments: refreshPayments,
  payment_link: createPaymentLink,
  show_cards: rememberChoice({ ordersView: "cards" }),
  show_table: rememberChoice({ ordersView: "table" }),
  fold_statistics: rememberChoice({ statisticsFolded: true }),
  unfold_statistics: rememberChoice({ statisticsFolded: false }),
  status: changeStatus,
};

export async function dashboardPageAction({ request, context }: ActionFunctionArgs) {
  const staff = await requireStaff(request, context);
  const submission = await readSubmission(request, context, dashboardSchema);
  // Back to the same list, on the same page.
  const back = listHref(
    "/backoffice",
    new URL(request.url).search,
    {},
    { samePage: true }
  );
  const handler =
    intentHandler(DASHBOARD_INTENTS, submittedIntent(submission)) ??
    unknownIntent;
  return handler({
    staff,
    db: await getDb(),
    config: getConfig(),
    submission,
    back,
  });
}
