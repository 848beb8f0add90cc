import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, Link, useLoaderData, useLocation, useNavigation } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { requireStaff } from "~/modules/auth/guards.server";
import { deleteFolder, deleteTrash, type DeletionErrors, deletionErrorsCookie, listFolderFiles, listStorageFoldersForScreen, readDeletionErrors } from "~/modules/backoffice/storage-files.server";
import { isDatabaseUnavailable } from "~/modules/db/unavailable";
import { loadSection, sectionData, sectionFailure, type SectionFailure } from "~/modules/http/section.server";
import { SectionError } from "~/components/section-error";
import { needsWarning } from "~/modules/backoffice/storage-trash";
import { PageDialog, Pagination } from "~/modules/backoffice/ui";
import { getDb } from "~/modules/db/db.server";
import { redirectWithToast } from "~/modules/http/toast.server";
import { getTranslator } from "~/modules/i18n/i18n.server";
import { useTranslation } from "~/modules/i18n/i18n-context";
import { longOrderNumber } from "~/modules/orders/orders.server";
import { getStorage } from "~/modules/storage/storage.server";
import { formatFileSize } from "~/modules/uploads/file-names";
import { readFormData } from "~/modules/http/request.server";
import { logger } from "~/modules/log/logger.server";

const PAGE_SIZE = 100;
const BACK = "/backoffice/files";
const FOLDER_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/;

type FolderView = {
  name: string;
  failure: SectionFailure | null;
  files: Array<{
    key: string;
    name: string;
    size: number;
    kind: string | null;
    extension: string;
  }>;
  total: number;
};

/** The page with no folders: the listing failed, or one folder is open. */
function empty(title: string, onlyTrash: boolean, page: number, deletionErrors: DeletionErrors | null) {
  return {
    title,
    listFailed: false,
    ordersFailed: false,
    folder: null as FolderView | null,
    onlyTrash,
    page,
    hasMore: false,
    folders: [],
    totals: null,
    deletionErrors,
  };
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireStaff(request, context);
  const { t } = await getTranslator(request);
  const url = new URL(request.url);
  const onlyTrash = url.searchParams.get("show") === "trash";
  const page = Math.max(1, Number.parseInt(url.searchParams.get("page") ?? "1", 10) || 1);
  const { result: deletionErrors, headers } = await readDeletionErrors(request);

  const folderParam = url.searchParams.get("folder");
  if (folderParam !== null) {
    // One folder opened: its files as rows (name, size, type), 100 a page.
    if (!FOLDER_NAME.test(folderParam)) throw new Response("Unknown folder", { status: 400 });
    const files = await loadSection("back-office: listing a storage folder", { message: "failures.files" }, () => listFolderFiles(getStorage(), folderParam));
    const rows = sectionData(files, []);
    return data(
      {
        ...empty(t("bo.files.title"), onlyTrash, page, deletionErrors),
        folder: {
          name: folderParam,
          failure: sectionFailure(files),
          files: rows.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE),
          total: rows.length,
        },
        hasMore: rows.length > page * PAGE_SIZE,
      },
      { headers },
    );
  }

  let folders;
  let ordersFailed = false;
  try {
    ({ folders, ordersFailed } = await listStorageFoldersForScreen(await getDb(), getStorage()));
  } catch (error) {
    if (isDatabaseUnavailable(error)) throw error;
    logger.error("back-office: listing storage folders failed:", error);
    return data(
      {
        ...empty(t("bo.files.title"), onlyTrash, page, deletionErrors),
        listFailed: true,
      },
      { headers },
    );
  }
  const trash = folders.filter((folder) => folder.garbage.length > 0);
  const shown = onlyTrash ? trash : folders;
  const pageFolders = shown.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE);
  return data(
    {
      title: t("bo.files.title"),
      listFailed: false,
      ordersFailed,
      folder: null,
      onlyTrash,
      page,
      hasMore: shown.length > page * PAGE_SIZE,
      totals: {
        folders: folders.length,
        size: folders.reduce((sum, folder) => sum + folder.size, 0),
        trashFiles: trash.reduce((sum, folder) => sum + folder.garbage.length, 0),
        trashSize: trash.reduce((sum, folder) => {
          const garbage = new Set(folder.garbage);
          return sum + folder.files.reduce((bytes, file) => bytes + (garbage.has(file.key) ? file.size : 0), 0);
        }, 0),
      },
      folders: pageFolders.map((folder) => ({
        name: folder.name,
        orderNumber: folder.orderId ? longOrderNumber(folder.orderId) : null,
        files: folder.files.length,
        size: folder.size,
        status: folder.order?.status ?? null,
        customer: folder.order ? folder.order.fullName || folder.order.email : null,
        warning: needsWarning(folder.order?.status),
        verdict: folder.verdict,
        deletable: folder.deletable,
        garbage: folder.garbage.length,
      })),
      deletionErrors,
    },
    { headers },
  );
}

export async function action({ request, context }: ActionFunctionArgs) {
  await requireStaff(request, context);
  const form = await readFormData(request);
  const intent = form.get("intent");
  const db = await getDb();
  const storage = getStorage();
  const back = `${BACK}${new URL(request.url).search}`;

  if (intent === "delete_folder") {
    const name = String(form.get("folder") ?? "");
    let deletion;
    try {
      deletion = await deleteFolder(db, storage, name);
    } catch (error) {
      logger.error("back-office: deleting a storage folder failed:", error);
      return redirectWithToast(back, {
        type: "error",
        title: "bo.toasts.error",
        description: "bo.files.listFailed",
      });
    }
    if (!deletion.ok) {
      const verdict = deletion.folder?.verdict ?? "not_an_order_folder";
      return redirectWithToast(back, {
        type: "error",
        title: "bo.files.notDeletable",
        description: deletion.reason === "not_found" ? "bo.files.notFound" : `bo.files.verdicts.${verdict}`,
      });
    }
    if (deletion.report.errors.length > 0) return withErrors(back, deletion.report);
    return redirectWithToast(back, {
      type: "success",
      title: "bo.files.folderDeleted",
      description: "bo.files.folderDeletedText",
    });
  }

  if (intent === "delete_trash") {
    let report;
    try {
      report = await deleteTrash(db, storage);
    } catch (error) {
      logger.error("back-office: deleting storage trash failed:", error);
      return redirectWithToast(back, {
        type: "error",
        title: "bo.toasts.error",
        description: "bo.files.listFailed",
      });
    }
    if (report.errors.length > 0) return withErrors(back, report);
    if (report.deletedFiles === 0)
      return redirectWithToast(back, {
        type: "info",
        title: "bo.files.trashEmpty",
      });
    return redirectWithToast(back, {
      type: "success",
      title: "bo.files.deleted",
      description: "bo.files.deletedText",
      values: { files: report.deletedFiles, folders: report.deletedFolders },
    });
  }

  return redirect(back);
}

async function withErrors(back: string, report: Parameters<typeof deletionErrorsCookie>[0]) {
  return redirectWithToast(
    back,
    {
      type: "warning",
      title: "bo.files.someFailed",
      values: { count: report.failedFolders },
    },
    { headers: { "Set-Cookie": await deletionErrorsCookie(report) } },
  );
}

export default function BackofficeFiles() {
  const { listFailed, ordersFailed, folder: openFolder, onlyTrash, page, hasMore, folders, totals, deletionErrors } = useLoaderData<typeof loader>();
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
      {totals ? (
        <p className="muted">
          {t("bo.files.summary", {
            folders: totals.folders,
            size: size(totals.size),
            trash: totals.trashFiles,
            trashSize: size(totals.trashSize),
          })}
        </p>
      ) : null}

      {ordersFailed ? <SectionError failure={{ message: "failures.ordersInfo" }} /> : null}
      {openFolder ? (
        <FolderFiles folder={openFolder} />
      ) : listFailed ? (
        <SectionError failure={{ title: "failures.files", message: "bo.files.listFailed" }} />
      ) : folders.length === 0 ? (
        <p className="empty">{t("bo.files.empty")}</p>
      ) : (
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">{t("bo.files.columns.name")}</th>
                <th scope="col" className="num">
                  {t("bo.files.columns.size")}
                </th>
                <th scope="col">{t("bo.files.columns.type")}</th>
                <th scope="col">{t("bo.files.columns.order")}</th>
                <th scope="col">{t("bo.files.columns.status")}</th>
                <th scope="col">{t("bo.files.columns.actions")}</th>
              </tr>
            </thead>
            <tbody>
              {folders.map((folder) => (
                <tr key={folder.name} className={folder.garbage > 0 ? "bo-trash-row" : undefined}>
                  <td>
                    <Link
                      to={`${BACK}?folder=${encodeURIComponent(folder.name)}`}
                      aria-label={t("bo.files.openFolder", {
                        name: folder.name,
                      })}
                    >
                      <code className="bo-folder-name">{folder.name}</code>
                    </Link>
                  </td>
                  <td className="num">{size(folder.size)}</td>
                  <td>{t("bo.files.folder", { count: folder.files })}</td>
                  <td>{folder.orderNumber ? <code>{folder.orderNumber}</code> : "—"}</td>
                  <td>
                    {folder.status ? (
                      <>
                        {folder.warning ? (
                          <span className="bo-warning" role="img" aria-label={t("bo.files.warning")} title={t("bo.files.warning")}>
                            ⚠{" "}
                          </span>
                        ) : null}
                        <span className={`badge badge-${folder.status}`}>{t(`orderStatus.${folder.status}`)}</span>
                        {folder.customer ? <div className="small">{folder.customer}</div> : null}
                      </>
                    ) : folder.orderNumber ? (
                      <span className="muted">{t("bo.files.orderMissing")}</span>
                    ) : (
                      "—"
                    )}
                  </td>
                  <td>
                    {folder.deletable ? (
                      <details className="bo-confirm">
                        <summary className="link-button bo-danger-link">{t("bo.files.delete")}</summary>
                        <Form method="post" className="bo-confirm-body">
                          <input type="hidden" name="folder" value={folder.name} />
                          <p>{t("bo.files.deleteConfirm", { name: folder.name })}</p>
                          <button type="submit" name="intent" value="delete_folder" className="button button-small bo-danger" disabled={busy}>
                            {t("bo.files.deleteYes")}
                          </button>
                        </Form>
                      </details>
                    ) : null}
                    {ordersFailed ? null : <div className="small muted">{t(`bo.files.verdicts.${folder.verdict}`)}</div>}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pagination page={page} hasMore={hasMore} />
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

/** One folder opened: its files as rows. */
function FolderFiles({ folder }: { folder: FolderView }) {
  const { t, i18n } = useTranslation();
  return (
    <section aria-labelledby="folder-title">
      <h2 id="folder-title">
        <code className="bo-folder-name">{folder.name}</code>
      </h2>
      <p>
        <Link to={BACK}>{t("bo.files.allFolders")}</Link>
      </p>
      {folder.failure ? (
        <SectionError failure={folder.failure} />
      ) : folder.total === 0 ? (
        <p className="empty">{t("bo.files.empty")}</p>
      ) : (
        <div className="table-wrap">
          <table>
            <caption className="visually-hidden">{t("bo.files.folderFiles", { name: folder.name })}</caption>
            <thead>
              <tr>
                <th scope="col">{t("bo.files.columns.name")}</th>
                <th scope="col" className="num">
                  {t("bo.files.columns.size")}
                </th>
                <th scope="col">{t("bo.files.columns.type")}</th>
              </tr>
            </thead>
            <tbody>
              {folder.files.map((file) => (
                <tr key={file.key}>
                  <td>
                    <code>{file.name}</code>
                  </td>
                  <td className="num">{formatFileSize(file.size, i18n.language)}</td>
                  <td>{[file.kind ? t(`bo.files.fileTypes.${file.kind}`) : null, file.extension || null].filter(Boolean).join(", ") || "—"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }, { name: "robots", content: "noindex" }];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
