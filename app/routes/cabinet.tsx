import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData, useSearchParams } from "@remix-run/react";
import { OrderCard } from "~/components/cabinet/order-card";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { SectionError } from "~/components/section-error";
import { useTranslation } from "~/modules/i18n/i18n-context";
import { loadCabinetPage, saveNotificationChannel } from "~/modules/orders/cabinet-page.server";
import { CABINET_STATUSES, NOTIFICATION_CHANNELS } from "~/modules/orders/status";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }, { name: "robots", content: "noindex" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  return loadCabinetPage(request, context);
}

export async function action({ request, context }: ActionFunctionArgs) {
  return saveNotificationChannel(request, context);
}

export default function Cabinet() {
  const data = useLoaderData<typeof loader>();
  const { t, i18n } = useTranslation();
  const [params] = useSearchParams();
  const locale = i18n.language === "ru" ? "ru-RU" : i18n.language;
  const pageLink = (n: number) => {
    const next = new URLSearchParams(params);
    next.set("page", String(n));
    return `?${next}`;
  };
  return (
    <section className="container cabinet">
      <div className="cabinet-head">
        <div>
          <h1>{t("cabinet.title")}</h1>
          <p className="muted">{data.email}</p>
        </div>
        <Form method="post" action="/order/new" reloadDocument>
          <button type="submit" className="button">
            {t("header.newOrder")}
          </button>
        </Form>
      </div>

      <details className="card channel">
        <summary>
          {t("cabinet.channel")}: <strong>{t(`cabinet.channels.${data.channel}`)}</strong> <span className="link-button">{t("cabinet.change")}</span>
        </summary>
        <Form method="post" className="stack">
          <fieldset className="choices">
            <legend>{t("cabinet.channelLegend")}</legend>
            {NOTIFICATION_CHANNELS.map((channel) => (
              <label key={channel} className="choice">
                <input type="radio" name="channel" value={channel} defaultChecked={channel === data.channel} />
                <span>{t(`cabinet.channels.${channel}`)}</span>
              </label>
            ))}
          </fieldset>
          <div>
            <button type="submit" className="button button-small">
              {t("cabinet.save")}
            </button>
          </div>
        </Form>
      </details>

      <details className="card sessions">
        <summary>{t("cabinet.sessions.title")}</summary>
        <Form method="post" action="/auth/sign-out" className="stack">
          <input type="hidden" name="scope" value="everywhere" />
          <p className="muted small">{t("cabinet.sessions.text")}</p>
          <div>
            <button type="submit" className="button button-small button-secondary">
              {t("cabinet.sessions.signOutEverywhere")}
            </button>
          </div>
        </Form>
      </details>

      {data.isPartner ? (
        <aside className="card partner-invite">
          <h2>{t("cabinet.partnerTitle")}</h2>
          <p className="muted small">{t("cabinet.partnerText")}</p>
          <Link to="/partner">{t("cabinet.partnerLink")}</Link>
        </aside>
      ) : null}

      <Form method="get" className="filters" role="search">
        <label htmlFor="cabinet-q" className="visually-hidden">
          {t("cabinet.search")}
        </label>
        <input id="cabinet-q" type="search" name="q" defaultValue={data.search} placeholder={t("cabinet.search")} />
        <label htmlFor="cabinet-status" className="visually-hidden">
          {t("cabinet.statusFilter")}
        </label>
        <select id="cabinet-status" name="status" defaultValue={data.status ?? ""}>
          <option value="">{t("cabinet.allStatuses")}</option>
          {CABINET_STATUSES.map((status) => (
            <option key={status} value={status}>
              {t(`orderStatus.${status}`)}
            </option>
          ))}
        </select>
        <button type="submit" className="button button-secondary button-small">
          {t("cabinet.apply")}
        </button>
      </Form>

      {data.ordersFailure ? (
        <SectionError failure={data.ordersFailure} />
      ) : data.orders.length === 0 ? (
        <p className="empty">{data.search || data.status ? t("cabinet.nothingFound") : t("cabinet.noOrders")}</p>
      ) : (
        <ul className="order-cards">
          {data.orders.map((order) => (
            <OrderCard key={order.id} order={order} locale={locale} />
          ))}
        </ul>
      )}
      {data.page > 1 || data.hasMore ? (
        <nav className="pagination" aria-label={t("pagination.label")}>
          {data.page > 1 ? <Link to={pageLink(data.page - 1)}>{t("pagination.previous")}</Link> : <span />}
          <span>{t("pagination.page", { page: data.page })}</span>
          {data.hasMore ? <Link to={pageLink(data.page + 1)}>{t("pagination.next")}</Link> : <span />}
        </nav>
      ) : null}
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
