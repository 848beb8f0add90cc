import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData, useLocation, useNavigation, useRevalidator, useSubmit } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { requireStaff } from "~/modules/auth/guards.server";
import { getConfig } from "~/modules/config/config.server";
import { getDb } from "~/modules/db/db.server";
import { getFileServer } from "~/modules/ftp/file-server.server";
import { parseQueueAction } from "~/modules/ftp/forms.server";
import {
  describeQueueError,
  fileTypeLabelKey,
  parseQueueFilters,
  QUEUE_PAGE_SIZE,
  QUEUE_REFRESH_MS,
  queueFiltersSearch,
  queueStatusLabelKey,
  STATUS_FILTERS,
  TYPE_FILTERS,
} from "~/modules/ftp/queue";
import { deleteEntries, listQueuePage } from "~/modules/ftp/queue.server";
import { processQueue, sendEntryNow } from "~/modules/ftp/transfer.server";
import { redirectWithToast } from "~/modules/http/toast.server";
import { getTranslator } from "~/modules/i18n/i18n.server";
import { useTranslation } from "~/modules/i18n/i18n-context";
import { isPaid } from "~/modules/orders/status";
import { getStorage } from "~/modules/storage/storage.server";
import { formatFileSize } from "~/modules/uploads/file-names";
import { readFormData } from "~/modules/http/request.server";
import { dateTimeFormat } from "~/modules/i18n/intl";

/** "Process queue" claims new files for this long; files in flight may take the grace period on top. */
const PROCESS_BUDGET_MS = 20_000;
const PROCESS_GRACE_MS = 20_000;

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireStaff(request, context);
  const { t } = await getTranslator(request);
  const filters = parseQueueFilters(new URL(request.url).searchParams);
  const { rows, total } = await listQueuePage(await getDb(), filters);
  const { maxAttempts } = getConfig().queue;
  return {
    title: t("ftp.title"),
    filters,
    total,
    pages: Math.max(1, Math.ceil(total / QUEUE_PAGE_SIZE)),
    entries: rows.map((row) => ({
      id: row.id,
      orderCode: row.order_prefix.toUpperCase(),
      orderStatus: row.order_status,
      orderPaid: isPaid(row.order_status),
      patient: row.patient_name,
      fileType: row.file_type,
      name: row.original_name,
      storedName: row.file_path.slice(row.file_path.lastIndexOf("/") + 1),
      destination: row.destination_path,
      size: row.file_size,
      status: row.status,
      attempts: row.attempts,
      exhausted: row.status === "failed" && row.attempts >= maxAttempts,
      error: describeQueueError(row.error_message),
      lastAttemptAt: row.last_attempt_at?.toISOString() ?? null,
      nextAttemptAt: row.status === "failed" ? row.next_attempt_at.toISOString() : null,
      completedAt: row.completed_at?.toISOString() ?? null,
      createdAt: row.created_at.toISOString(),
      released: row.released_at !== null,
      removed: row.removed_at !== null,
    })),
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const staff = await requireStaff(request, context);
  const submission = parseQueueAction(await readFormData(request));
  if (!submission.success) throw new Response("Bad request", { status: 400 });
  const { intent, ids, back } = submission.data;
  const to = `/backoffice/ftp${back}`;
  const config = getConfig();
  const deps = { db: await getDb(), storage: getStorage(), fileServer: getFileServer() };

  if (intent === "delete") {
    if (ids.length === 0) return redirectWithToast(to, { type: "error", title: "ftp.toasts.errorTitle", description: "ftp.toasts.nothingSelected" });
    const count = await deleteEntries(deps.db, ids);
    return redirectWithToast(to, { type: "success", title: "ftp.toasts.deletedTitle", description: "ftp.toasts.deleted", values: { count } });
  }

  if (intent === "process") {
    const summary = await processQueue(deps, config.queue, { budgetMs: PROCESS_BUDGET_MS, graceMs: PROCESS_GRACE_MS });
    if (summary.claimed === 0) return redirectWithToast(to, { type: "info", title: "ftp.toasts.doneTitle", description: "ftp.toasts.nothingToProcess" });
    return redirectWithToast(to, {
      type: summary.failed > 0 ? "warning" : "success",
      title: "ftp.toasts.doneTitle",
      description: "ftp.toasts.processed",
      values: { completed: summary.completed, failed: summary.failed, remaining: summary.remaining },
    });
  }

  const result = await sendEntryNow(deps, config.queue, intent.upload, staff.actorLabel);
  if (result.ok) return redirectWithToast(to, { type: "success", title: "ftp.toasts.sentTitle", description: "ftp.toasts.sent" });
  if (result.reason === "failed") {
    const error = describeQueueError(result.error) ?? { key: "ftp.errors.unknown", values: {} };
    return redirectWithToast(to, { type: "error", title: "ftp.toasts.errorTitle", description: error.key, values: error.values });
  }
  return redirectWithToast(to, { type: "error", title: "ftp.toasts.errorTitle", description: `ftp.toasts.${result.reason}` });
}

type Entry = Awaited<ReturnType<typeof loader>>["entries"][number];

/** Reloads the page's data every few seconds while the tab is visible (JavaScript only). */
function useAutoRefresh(intervalMs: number) {
  const revalidator = useRevalidator();
  const navigation = useNavigation();
  const state = useRef({ revalidator, navigation });
  state.current = { revalidator, navigation };
  useEffect(() => {
    let timer: ReturnType<typeof setInterval> | undefined;
    const refresh = () => {
      const { revalidator: current, navigation: nav } = state.current;
      if (current.state === "idle" && nav.state === "idle") current.revalidate();
    };
    const start = () => {
      clearInterval(timer);
      timer = document.visibilityState === "visible" ? setInterval(refresh, intervalMs) : undefined;
    };
    const onVisibility = () => {
      if (document.visibilityState === "visible") refresh();
      start();
    };
    start();
    document.addEventListener("visibilitychange", onVisibility);
    return () => {
      clearInterval(timer);
      document.removeEventListener("visibilitychange", onVisibility);
    };
  }, [intervalMs]);
}

export default function BackofficeFtp() {
  const { filters, total, pages, entries } = useLoaderData<typeof loader>();
  const { t, i18n } = useTranslation();
  const location = useLocation();
  const navigation = useNavigation();
  const submit = useSubmit();
  const [hydrated, setHydrated] = useState(false);
  const rowsForm = useRef<HTMLFormElement>(null);
  useEffect(() => setHydrated(true), []);
  useAutoRefresh(QUEUE_REFRESH_MS);

  const search = queueFiltersSearch(filters);
  const pageLink = (page: number) => queueFiltersSearch({ ...filters, page }) || "?";
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
          <span>{t("ftp.total", { count: total })}</span>
          <button type="submit" className="button button-danger" name="intent" value="delete" disabled={entries.length === 0 || busyIntent === "delete"}>
            {t("ftp.deleteSelected")}
          </button>
        </div>
        {entries.length === 0 ? (
          <p className="empty">{t("ftp.empty")}</p>
        ) : (
          <div className="table-wrap">
            <table className="ftp-table">
              <thead>
                <tr>
                  <th scope="col" className="ftp-select">
                    {hydrated ? <input type="checkbox" aria-label={t("ftp.selectAll")} onChange={(event) => selectAll(event.currentTarget.checked)} /> : <span className="visually-hidden">{t("ftp.columns.select")}</span>}
                  </th>
                  <th scope="col">{t("ftp.columns.order")}</th>
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
              <tbody>
                {entries.map((entry) => (
                  <EntryRow key={entry.id} entry={entry} time={time} sending={busyIntent === `upload:${entry.id}`} />
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Form>

      <nav className="pagination" aria-label={t("ftp.pagination.label")}>
        {filters.page > 1 ? <Link to={pageLink(filters.page - 1)}>{t("ftp.pagination.previous")}</Link> : <span />}
        <span>{t("ftp.pagination.page", { page: filters.page, pages })}</span>
        {filters.page < pages ? <Link to={pageLink(filters.page + 1)}>{t("ftp.pagination.next")}</Link> : <span />}
      </nav>
    </section>
  );
}

function EntryRow({ entry, time, sending }: { entry: Entry; time: (iso: string) => string; sending: boolean }) {
  const { t, i18n } = useTranslation();
  const status = sending ? "uploading" : entry.status;
  return (
    <tr className={`ftp-row ftp-row-${entry.status}`}>
      <td className="ftp-select">
        <input type="checkbox" name="ids" value={entry.id} aria-label={t("ftp.selectRow", { name: entry.name })} />
      </td>
      <td>
        <code>{entry.orderCode}</code>
        <div className="muted small">{t(`ftp.orderStatus.${entry.orderStatus}`)}</div>
      </td>
      <td>{entry.patient ?? "—"}</td>
      <td>{t(fileTypeLabelKey(entry.fileType))}</td>
      <td className="ftp-file">
        <span className="file-name">{entry.name}</span>
        <div className="muted small">
          {entry.size !== null ? `${formatFileSize(entry.size, i18n.language)} · ` : ""}
          <span title={t("ftp.destination")}>
            {entry.destination}/{entry.storedName}
          </span>
        </div>
      </td>
      <td>
        <span className={`badge ftp-status-${status}`}>{t(queueStatusLabelKey(status))}</span>
        {!entry.orderPaid && !entry.released && entry.status !== "completed" ? <div className="muted small">{t("ftp.waitingForPayment")}</div> : null}
        {entry.released ? <div className="muted small">{t("ftp.released")}</div> : null}
        {entry.removed ? <div className="muted small">{t("ftp.removed")}</div> : null}
        {entry.completedAt ? <div className="muted small">{time(entry.completedAt)}</div> : null}
      </td>
      <td className="num">{entry.attempts}</td>
      <td className="ftp-attempt">
        {entry.lastAttemptAt ? <div>{time(entry.lastAttemptAt)}</div> : <span className="muted">—</span>}
        {entry.error ? (
          <div className="ftp-error">
            <span className="visually-hidden">{t("ftp.lastError")}: </span>
            {t(entry.error.key, entry.error.values)}
          </div>
        ) : null}
        {entry.exhausted ? <div className="muted small">{t("ftp.exhausted")}</div> : entry.nextAttemptAt ? <div className="muted small">{t("ftp.nextAttempt", { time: time(entry.nextAttemptAt) })}</div> : null}
      </td>
      <td>
        {entry.status !== "completed" ? (
          <button type="submit" className="button button-small" name="intent" value={`upload:${entry.id}`} disabled={sending} aria-label={t("ftp.uploadRow", { name: entry.name })}>
            {t("ftp.upload")}
          </button>
        ) : null}
      </td>
    </tr>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }, { name: "robots", content: "noindex" }];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
