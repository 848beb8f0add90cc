import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, NavLink, Outlet, useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { loadOrderLayout } from "~/modules/backoffice/order-page.server";
import { useTranslation } from "~/components/i18n/i18n-context";

export const meta: MetaFunction<typeof loader> = () => [{ name: "robots", content: "noindex" }];

/**
 * The order's own page (ADR 069): its header and tabs — the overview (everything its dashboard card
 * shows), its thread with the clinic (ADR 104), its files, the tracker and deletion — each tab a child route at its old address.
 */
export async function loader(args: LoaderFunctionArgs) {
  return loadOrderLayout(args);
}

export default function OrderLayout() {
  const order = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const base = `/backoffice/orders/${order.id}`;
  const back = encodeURIComponent(base);
  return (
    <section className="bo-page bo-order-page">
      <p>
        <Link to="/backoffice">{t("bo.back")}</Link>
      </p>
      <header className="bo-order-page-head">
        <h1>{t("bo.orders.number", { number: order.number })}</h1>
        <span className={`badge badge-${order.status}`}>{t(`orderStatus.${order.status}`)}</span>
        {order.client ? <span className="muted">{order.client}</span> : null}
      </header>
      <nav className="tabs bo-order-tabs" aria-label={t("bo.orders.page.sections")}>
        <NavLink to={base} end>
          {t("bo.orders.page.overview")}
        </NavLink>
        <NavLink to={`${base}/thread`}>{t("bo.orders.page.thread")}</NavLink>
        <NavLink to={`${base}/files?back=${back}`}>{t("bo.orders.page.files")}</NavLink>
        <NavLink to={`${base}/tracker?back=${back}`}>{t("bo.orders.page.tracker")}</NavLink>
        <NavLink to={`${base}/delete?back=${encodeURIComponent("/backoffice")}`}>{t("bo.orders.page.delete")}</NavLink>
      </nav>
      <Outlet />
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
