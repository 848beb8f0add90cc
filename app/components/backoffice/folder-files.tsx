import { Link } from "@remix-run/react";
import type { SerializeFrom } from "@remix-run/node";
import { SectionError } from "~/components/section-error";
import { useTranslation } from "~/components/i18n/i18n-context";
import type { FolderView } from "~/modules/backoffice/files-page.server";
import { formatFileSize } from "~/modules/i18n/file-size";

const BACK = "/backoffice/files";

/** One folder opened: its files as rows. */
export function FolderFiles({ folder }: { folder: SerializeFrom<FolderView> }) {
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
