import { Form, Link } from "@remix-run/react";
import type { SerializeFrom } from "@remix-run/node";
import { useTranslation } from "~/components/i18n/i18n-context";
import type { loadFilesPage } from "~/modules/backoffice/files-page.server";
import { formatFileSize } from "~/modules/i18n/file-size";

const BACK = "/backoffice/files";

type Folders = SerializeFrom<typeof loadFilesPage>["folders"];

/** The storage folders of a page: size, type, order and status, with the delete button of a deletable one. */
export function StorageFolders({ folders, ordersFailed, busy }: { folders: Folders; ordersFailed: boolean; busy: boolean }) {
  const { t, i18n } = useTranslation();
  const size = (bytes: number) => formatFileSize(bytes, i18n.language);
  return (
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
  );
}
