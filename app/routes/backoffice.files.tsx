import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData, useLocation, useNavigation } from "@remix-run/react";
import { FolderFiles } from "~/components/backoffice/folder-files";
import { StorageFolders } from "~/components/backoffice/storage-folders";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { SectionError } from "~/components/section-error";
import { filesPageAction, loadFilesPage } from "~/modules/backoffice/files-page.server";
import { PageDialog, Pagination } from "~/components/backoffice/ui";
import { useTranslation } from "~/components/i18n/i18n-context";
import { formatFileSize } from "~/modules/i18n/file-size";

const BACK = "/backoffice/files";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }, { name: "robots", content: "noindex" }];

export async function loader(args: LoaderFunctionArgs) {
  return loadFilesPage(args);
}

export async function action(args: ActionFunctionArgs) {
  return filesPageAction(args);
}

export default function BackofficeFiles() {
  const { listFailed, ordersFailed, folder: openFolder, onlyTrash, page, hasMore, after, next, folders, totals, deletionErrors } = useLoaderData<typeof loader>();
  const { t, i18n } = useTranslation();
  const location = useLocation();
  const busy = useNavigation().state === "submitting";
  const size = (bytes: number) => formatFileSize(bytes, i18n.language);

  return (
    <section className="bo-page">
      <p>
        <Link to="/backoffice">{t("bo.back")}</Link>
      </p>
      <h1>{t("bo.files.title")}</h1>
      <div className="bo-toolbar">
        <Form method="get" className="filters">
          <label htmlFor="files-show" className="visually-hidden">
            {t("bo.files.show")}
          </label>
          <select id="files-show" name="show" defaultValue={onlyTrash ? "trash" : ""}>
            <option value="">{t("bo.files.showAll")}</option>
            <option value="trash">{t("bo.files.showTrash")}</option>
          </select>
          <button type="submit" className="button button-secondary button-small">
            {t("bo.files.apply")}
          </button>
        </Form>
        <Link to={`${BACK}${location.search}`} className="button button-secondary button-small">
          {t("bo.files.refresh")}
        </Link>
        {totals && totals.trashFiles > 0 ? (
          <details className="bo-confirm">
            <summary className="button button-small bo-danger">{t("bo.files.deleteTrash")}</summary>
            <Form method="post" className="bo-confirm-body">
              <p>
                {t("bo.files.deleteTrashConfirm", {
                  count: totals.trashFiles,
                  size: size(totals.trashSize),
                })}
              </p>
              <button type="submit" name="intent" value="delete_trash" className="button button-small bo-danger" disabled={busy}>
                {t("bo.files.deleteTrashYes")}
              </button>
            </Form>
          </details>
        ) : null}
      </div>
      {totals?.walk ? (
        <p className="muted">
          {t("bo.files.summary", {
            folders: totals.walk.folders,
            size: size(totals.walk.bytes),
            trash: totals.trashFiles,
            trashSize: size(totals.trashSize),
          })}{" "}
          {t("bo.files.walkedAt", { date: new Date(totals.walk.finishedAt).toLocaleString(i18n.language, { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" }) + " UTC" })}
        </p>
      ) : totals ? (
        <p className="muted">{t("bo.files.notWalked", { trash: totals.trashFiles, trashSize: size(totals.trashSize) })}</p>
      ) : null}

      {ordersFailed ? <SectionError failure={{ message: "failures.ordersInfo" }} /> : null}
      {openFolder ? (
        <FolderFiles folder={openFolder} />
      ) : listFailed ? (
        <SectionError failure={{ title: "failures.files", message: "bo.files.listFailed" }} />
      ) : ordersFailed ? null : folders.length === 0 ? (
        <p className="empty">{t("bo.files.empty")}</p>
      ) : (
        <StorageFolders folders={folders} ordersFailed={ordersFailed} busy={busy} />
      )}
      {openFolder ? (
        <Pagination page={page} hasMore={hasMore} />
      ) : after || next ? (
        <nav className="pagination" aria-label={t("pagination.label")}>
          {after ? <Link to={onlyTrash ? `${BACK}?show=trash` : BACK}>{t("bo.files.firstPage")}</Link> : <span />}
          <span />
          {next ? <Link to={`${BACK}?${new URLSearchParams({ ...(onlyTrash ? { show: "trash" } : {}), after: next }).toString()}`}>{t("pagination.next")}</Link> : <span />}
        </nav>
      ) : null}
      {deletionErrors ? (
        <PageDialog titleId="files-errors-title" title={t("bo.files.errorsTitle")} closeTo={`${BACK}${location.search}`}>
          <p role="alert">{t("bo.files.someFailed", { count: deletionErrors.failedFolders })}</p>
          <ul className="bo-error-list">
            {deletionErrors.errors.map((error, index) => (
              <li key={index}>
                <code>{error}</code>
              </li>
            ))}
          </ul>
          <p className="hint">{t("bo.files.permissionsHint")}</p>
          <div className="bo-dialog-actions">
            <Link to={`${BACK}${location.search}`} className="button">
              {t("bo.dialog.close")}
            </Link>
          </div>
        </PageDialog>
      ) : null}
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
