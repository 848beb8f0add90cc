import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { FileScan } from "~/components/backoffice/file-scan";
import { FileCorrections, FileFactsForm } from "~/components/backoffice/file-facts";
import { FILE_KINDS, patientFilesId } from "~/modules/backoffice/order-files";
import { PageDialog } from "~/components/backoffice/ui";
import { useTranslation } from "~/components/i18n/i18n-context";
import { formatFileSize } from "~/modules/i18n/file-size";
import { loadOrderFilesPage, orderFilesPageAction } from "~/modules/backoffice/order-files-page.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }, { name: "robots", content: "noindex" }];

/**
 * An order's files for staff (staff side §1: they review patients, materials and files): each
 * patient's matrix, aligner and retainer models with their download links and the jaw and step
 * their labels print, which staff can correct (ADR 058). The order card on the dashboard shows how
 * many there are of each kind and links here, so the dashboard stays light.
 */
export async function loader(args: LoaderFunctionArgs) {
  return loadOrderFilesPage(args);
}

export async function action(args: ActionFunctionArgs) {
  return orderFilesPageAction(args);
}

export default function OrderFiles() {
  const { title, back, action, patients, corrections } = useLoaderData<typeof loader>();
  const { t, i18n } = useTranslation();
  return (
    <section className="bo-page">
      <PageDialog titleId="order-files-title" title={title} closeTo={back} wide>
        {patients.length === 0 ? <p className="muted">{t("bo.orders.noPatients")}</p> : null}
        {patients.some((patient) => FILE_KINDS.some(({ type }) => patient.files[type]?.some((file) => file.facts.guessed))) ? <p className="small muted">{t("bo.orders.files.guessedHint")}</p> : null}
        {patients.map((patient) => (
          <section key={patient.id} id={patientFilesId(patient.folder)} className="bo-order-files" aria-labelledby={`patient-${patient.id}`}>
            <h3 id={`patient-${patient.id}`}>
              {patient.name} <span className="small muted">{patient.folder}</span>
            </h3>
            {FILE_KINDS.map(({ type, label }) => {
              const files = patient.files[type];
              return (
                <div key={type}>
                  <h4>
                    {t(label)}: {files === null ? t("bo.orders.skipped") : files.length}
                  </h4>
                  {files?.length ? (
                    <ul className="plain-list">
                      {files.map((file) => (
                        <li key={file.url}>
                          <a href={file.sourceUrl ?? file.url}>{file.name}</a>
                          {file.sourceUrl ? (
                            <>
                              {" "}
                              (<a href={file.url}>STL</a>)
                            </>
                          ) : null}{" "}
                          <span className="small muted">{formatFileSize(file.size, i18n.language)}</span>
                          {file.scan ? <FileScan scan={file.scan} /> : null}
                          <FileFactsForm action={action} patientId={patient.id} type={type} file={file} />
                        </li>
                      ))}
                    </ul>
                  ) : files ? (
                    <p className="small muted">{t("bo.orders.files.none")}</p>
                  ) : null}
                </div>
              );
            })}
          </section>
        ))}
        <FileCorrections corrections={corrections} />
      </PageDialog>
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
