import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { FilterBar } from "~/components/lists/filter-bar";
import { Form, Link, useLoaderData, useSearchParams } from "@remix-run/react";
import { OrderCard } from "~/components/cabinet/order-card";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { SectionError } from "~/components/section-error";
import { useTranslation } from "~/components/i18n/i18n-context";
import { CABINET_SORTS, CABINET_TABS } from "~/modules/cabinet/cabinet-query";
import { loadCabinetPage, saveNotificationChannel } from "~/modules/cabinet/cabinet-page.server";
import { NOTIFICATION_CHANNELS } from "~/modules/orders/status";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }, { name: "robots", content: "noindex" }];


export async function loader(args: LoaderFunctionArgs) {
  return loadCabinetPage(args);
}

export async function action(args: ActionFunctionArgs) {
  return saveNotificationChannel(args);
}

export default function Cabinet() {
  const data = useLoaderData<typeof loader>();
  const { t, i18n } = useTranslation();
  const [params] = useSearchParams();
  const locale = i18n.language === "ru" ? "ru-RU" : i18n.language;
  // The list's links keep the rest of the query (search, tab, sort) and change only what they name.
  const listLink = (changes: Record<string, string | null>) => {
    const next = new URLSearchParams(params);
    for (const [name, value] of Object.entries(changes)) {
      if (value === null) next.delete(name);
      else next.set(name, value);
    }
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

      <nav className="cabinet-tabs" aria-label={t("cabinet.statusFilter")}>
        <ul>
          {CABINET_TABS.map((tab) => {
            const count = data.counts?.[tab];
            const current = !data.answer && (data.status ?? "all") === tab;
            return (
              <li key={tab}>
                <Link to={listLink({ status: tab === "all" ? null : tab, after: null, answer: null })} aria-current={current ? "page" : undefined} className={current ? "tab tab-current" : "tab"}>
                  {tab === "all" ? t("cabinet.allStatuses") : t(`orderStatus.${tab}`)}
                  {count === undefined ? null : <span className="tab-count">{count > data.countCap ? `${data.countCap}+` : count}</span>}
                </Link>
              </li>
            );
          })}
          {/* The orders whose thread waits for the clinic (ADR 104). */}
          <li>
            <Link to={listLink({ answer: "1", status: null, after: null })} aria-current={data.answer ? "page" : undefined} className={data.answer ? "tab tab-current" : "tab"}>
              {t("thread.cabinet.tab")}
              {data.answerCount === null ? null : <span className="tab-count">{data.answerCount > data.countCap ? `${data.countCap}+` : data.answerCount}</span>}
            </Link>
          </li>
        </ul>
      </nav>

      <FilterBar keep={{ status: data.status, answer: data.answer ? "1" : null }} search={{ id: "cabinet-q", value: data.search, label: t("cabinet.search") }} applyLabel={t("cabinet.apply")}>
        <label htmlFor="cabinet-sort" className="visually-hidden">
          {t("cabinet.sort.label")}
        </label>
        <select id="cabinet-sort" name="sort" defaultValue={data.sort}>
          {CABINET_SORTS.map((sort) => (
            <option key={sort} value={sort}>
              {t(`cabinet.sort.${sort}`)}
            </option>
          ))}
        </select>
      </FilterBar>

      {data.ordersFailure ? (
        <SectionError failure={data.ordersFailure} />
      ) : data.orders.length === 0 ? (
        <p className="empty">{data.search || data.status || !data.isFirstPage ? t("cabinet.nothingFound") : t("cabinet.noOrders")}</p>
      ) : (
        <ul className="order-cards">
          {data.orders.map((order) => (
            <OrderCard key={order.id} order={order} locale={locale} />
          ))}
        </ul>
      )}
      {!data.isFirstPage || data.next ? (
        <nav className="pagination" aria-label={t("pagination.label")}>
          {!data.isFirstPage ? <Link to={listLink({ after: null })}>{t("cabinet.firstPage")}</Link> : <span />}
          {data.next ? <Link to={listLink({ after: data.next })}>{t("pagination.next")}</Link> : <span />}
        </nav>
      ) : null}

      {/* The orders come first, on a phone's first screen too (ADR 095); the clinic's settings follow them. */}
      <div className="cabinet-settings">
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

        <details className="card data-export">
          <summary>{t("cabinet.data.title")}</summary>
          <Form method="get" action="/cabinet/data" reloadDocument className="stack">
            <p className="muted small">{t("cabinet.data.text")}</p>
            <label className="checkbox">
              <input type="checkbox" name="files" value="1" />
              <span>{t("cabinet.data.withFiles")}</span>
            </label>
            <div>
              <button type="submit" className="button button-small button-secondary">
                {t("cabinet.data.download")}
              </button>
            </div>
          </Form>
          <p className="small">
            <Link to="/cabinet/erasure">{t("cabinet.data.erasure")}</Link>
          </p>
        </details>

        {data.isPartner ? (
          <aside className="card partner-invite">
            <h2>{t("cabinet.partnerTitle")}</h2>
            <p className="muted small">{t("cabinet.partnerText")}</p>
            <Link to="/partner">{t("cabinet.partnerLink")}</Link>
          </aside>
        ) : null}
      </div>
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
