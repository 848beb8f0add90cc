import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData, useLocation, useNavigation, useSubmit } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { EntryRow } from "~/components/ftp/queue-entry-row";
import { useAutoRefresh } from "~/components/ftp/use-auto-refresh";
import { QUEUE_REFRESH_MS, queueFiltersSearch, queueStatusLabelKey, STATUS_FILTERS, TYPE_FILTERS } from "~/modules/ftp/queue";
import { loadQueuePage, queuePageAction } from "~/modules/ftp/queue-page.server";
import { useTranslation } from "~/components/i18n/i18n-context";
import { dateTimeFormat, numberFormat } from "~/modules/i18n/intl";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }, { name: "robots", content: "noindex" }];

export async function loader(args: LoaderFunctionArgs) {
  return loadQueuePage(args);
}

export async function action(args: ActionFunctionArgs) {
  return queuePageAction(args);
}

export default function BackofficeFtp() {
  const { filters, entries, orders, previous, next, groups } = useLoaderData<typeof loader>();
  const { t, i18n } = useTranslation();
  const location = useLocation();
  const navigation = useNavigation();
  const submit = useSubmit();
  const [hydrated, setHydrated] = useState(false);
  const rowsForm = useRef<HTMLFormElement>(null);
  useEffect(() => setHydrated(true), []);
  useAutoRefresh(QUEUE_REFRESH_MS);

  const search = queueFiltersSearch(filters);
  const pageLink = (cursor: { after?: string; before?: string }) => queueFiltersSearch({ ...filters, open: null, after: cursor.after ?? null, before: cursor.before ?? null }) || "?";
  // Opening a folded order lists all its files on this page; folding it again is the page without it (ADR 098).
  const openLink = (id: string | null) => `${location.pathname}${queueFiltersSearch({ ...filters, open: id })}${id ? `#ftp-order-${id}` : ""}`;
  const busyIntent = navigation.state === "submitting" ? String(navigation.formData?.get("intent") ?? "") : "";
  const locale = i18n.language === "ru" ? "ru-RU" : i18n.language;
  const time = (iso: string) => dateTimeFormat(locale, { dateStyle: "short", timeStyle: "medium" }).format(new Date(iso));
  const selectAll = (checked: boolean) => {
    rowsForm.current?.querySelectorAll<HTMLInputElement>('input[name="ids"]').forEach((box) => (box.checked = checked));
  };

  return (
    <section className="ftp-queue">
      <div className="ftp-head">
        <h1>{t("ftp.title")}</h1>
        <div className="ftp-actions">
          <Link className="button button-secondary" to={`${location.pathname}${search}`}>
            {t("ftp.refresh")}
          </Link>
          <Form method="post">
            <input type="hidden" name="back" value={search} />
            <button type="submit" className="button" name="intent" value="process" disabled={busyIntent === "process"}>
              {busyIntent === "process" ? t("ftp.processing") : t("ftp.processQueue")}
            </button>
          </Form>
        </div>
      </div>
      <p className="muted small">{hydrated ? t("ftp.autoRefresh") : t("ftp.intro")}</p>

      <Form method="get" className="ftp-filters" aria-label={t("ftp.filters.label")} onChange={(event) => hydrated && submit(event.currentTarget)}>
        <label>
          {t("ftp.filters.status")}
          <select name="status" defaultValue={filters.status} key={`status-${filters.status}`}>
            {STATUS_FILTERS.map((status) => (
              <option key={status} value={status}>
                {t(`ftp.filters.statuses.${status}`)}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t("ftp.filters.type")}
          <select name="type" defaultValue={filters.type} key={`type-${filters.type}`}>
            {TYPE_FILTERS.map((type) => (
              <option key={type} value={type}>
                {t(`ftp.filters.types.${type}`)}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className="button button-secondary">
          {t("ftp.filters.apply")}
        </button>
      </Form>

      <Form method="post" id="ftp-rows" ref={rowsForm}>
        <input type="hidden" name="back" value={search} />
        <div className="ftp-bulk">
          <span>
            {`${orders.capped ? t("ftp.totalOrdersMore", { limit: numberFormat(locale).format(orders.total) }) : t("ftp.totalOrders", { count: orders.total })} · ${
              entries.capped ? t("ftp.totalMore", { limit: numberFormat(locale).format(entries.total) }) : t("ftp.total", { count: entries.total })
            }`}
          </span>
          <button type="submit" className="button button-danger" name="intent" value="delete" disabled={groups.length === 0 || busyIntent === "delete"}>
            {t("ftp.deleteSelected")}
          </button>
        </div>
        {groups.length === 0 ? (
          <p className="empty">{t("ftp.empty")}</p>
        ) : (
          <div className="table-wrap">
            <table className="ftp-table">
              <thead>
                <tr>
                  <th scope="col" className="ftp-select">
                    {hydrated ? (
                      <input type="checkbox" aria-label={t("ftp.selectAll")} onChange={(event) => selectAll(event.currentTarget.checked)} />
                    ) : (
                      <span className="visually-hidden">{t("ftp.columns.select")}</span>
                    )}
                  </th>
                  <th scope="col">{t("ftp.columns.patient")}</th>
                  <th scope="col">{t("ftp.columns.type")}</th>
                  <th scope="col">{t("ftp.columns.file")}</th>
                  <th scope="col">{t("ftp.columns.status")}</th>
                  <th scope="col" className="num">
                    {t("ftp.columns.attempts")}
                  </th>
                  <th scope="col">{t("ftp.columns.lastAttempt")}</th>
                  <th scope="col">
                    <span className="visually-hidden">{t("ftp.columns.actions")}</span>
                  </th>
                </tr>
              </thead>
              {groups.map((group) => (
                <tbody key={group.id} className="ftp-order">
                  <tr className="ftp-order-head">
                    <th scope="colgroup" colSpan={8} id={`ftp-order-${group.id}`}>
                      <span className="ftp-order-code">{t("ftp.order.heading", { code: group.code })}</span>
                      <span className={`badge badge-${group.status}`}>{t(`ftp.orderStatus.${group.status}`)}</span>
                      <span>{group.clinic ?? group.email ?? t("ftp.order.noClinic")}</span>
                      <span className="muted small">{t("ftp.order.files", { count: group.files })}</span>
                      <span className="muted small ftp-order-counts">{group.states.map(([status, count]) => `${t(queueStatusLabelKey(status))}: ${count}`).join(" · ")}</span>
                      {group.paid ? null : <span className="muted small">{t("ftp.waitingForPayment")}</span>}
                    </th>
                  </tr>
                  {group.entries.map((entry) => (
                    <EntryRow key={entry.id} entry={entry} orderPaid={group.paid} time={time} sending={busyIntent === `upload:${entry.id}`} />
                  ))}
                  {filters.open === group.id ? (
                    <tr className="ftp-folded">
                      <td colSpan={8}>
                        <Link to={openLink(null)}>{t("ftp.order.fold")}</Link>
                      </td>
                    </tr>
                  ) : group.open ? null : (
                    <tr className="ftp-folded">
                      <td colSpan={8}>
                        {group.entries.length > 0 ? <span className="muted small">{t("ftp.order.failedShown", { count: group.entries.length })} </span> : null}
                        <Link to={openLink(group.id)}>{t("ftp.order.showAll", { count: group.files })}</Link>
                      </td>
                    </tr>
                  )}
                </tbody>
              ))}
            </table>
          </div>
        )}
      </Form>

      <nav className="pagination" aria-label={t("ftp.pagination.label")}>
        {previous ? <Link to={pageLink({ before: previous })}>{t("ftp.pagination.previous")}</Link> : <span />}
        {previous ? <Link to={pageLink({})}>{t("ftp.pagination.first")}</Link> : <span />}
        {next ? <Link to={pageLink({ after: next })}>{t("ftp.pagination.next")}</Link> : <span />}
      </nav>
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
