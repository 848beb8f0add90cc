import type { FileType } from "~db/schema";
import type { DashboardPatient } from "~/modules/backoffice/dashboard.server";
import { FILE_KINDS, patientFilesId } from "~/modules/backoffice/order-files";
import { useTranslation } from "~/components/i18n/i18n-context";
import { ListLink } from "~/components/lists/plain-navigation";

/**
 * An order card's patients: their choices, how many files of each kind and a link to them on the
 * order's files page. The order's own page shows them as a table; the dashboard, ten cards at a
 * time, one line each (a third of the markup: bench/RESULTS.md, "Pages fast when made").
 */

const MATERIAL_LABELS = { single_layer: "wizard.material.singleLayer", three_layer: "wizard.material.threeLayer" } as const;
const CUT_LABELS = { wavy: "wizard.cut.wavy", straight: "wizard.cut.straight" } as const;
const MATRIX_LABELS = { soft: "wizard.matrix.soft", hard: "wizard.matrix.hard" } as const;

type Translate = ReturnType<typeof useTranslation>["t"];

const hasFiles = (patient: DashboardPatient) => FILE_KINDS.some(({ type }) => patient.fileCounts[type]);
const countText = (t: Translate, patient: DashboardPatient, type: FileType, label: string) => {
  const count = patient.fileCounts[type];
  return `${t(label)}: ${count === null ? t("bo.orders.skipped") : count}`;
};

/** The dashboard's patients: name and folder, choices, counts and the files link on one line. */
export function PatientLines({ patients, filesUrl }: { patients: DashboardPatient[]; filesUrl: string }) {
  const { t } = useTranslation();
  return (
    <ul className="bo-patient-lines">
      {patients.map((patient) => {
        const choices = [
          patient.material ? t(MATERIAL_LABELS[patient.material]) : null,
          patient.cut ? t(CUT_LABELS[patient.cut]) : null,
          patient.matrix ? t(MATRIX_LABELS[patient.matrix]) : null,
        ].filter(Boolean);
        const facts = [...choices, ...FILE_KINDS.map(({ type, label }) => countText(t, patient, type, label))].join(" · ");
        return (
          <li key={patient.id}>
            <strong>{patient.name}</strong> <span className="small muted">{patient.folder}</span>
            <span className="small">{` · ${facts}`}</span>
            {hasFiles(patient) ? (
              <>
                {" · "}
                <ListLink to={`${filesUrl}#${patientFilesId(patient.folder)}`} className="small">
                  {t("bo.orders.files.open")}
                </ListLink>
              </>
            ) : null}
            {patient.comment ? <div className="small bo-patient-comment">{patient.comment}</div> : null}
          </li>
        );
      })}
    </ul>
  );
}

/** The order page's patients: a row each, with choices and counts in their columns. */
export function PatientsTable({ patients, filesUrl, number }: { patients: DashboardPatient[]; filesUrl: string; number: string }) {
  const { t } = useTranslation();
  return (
    <div className="table-wrap bo-patients">
      <table>
        <caption className="visually-hidden">{t("bo.orders.patientsOf", { number })}</caption>
        <thead>
          <tr>
            <th scope="col">{t("bo.orders.columns.patient")}</th>
            <th scope="col">{t("bo.orders.columns.material")}</th>
            <th scope="col">{t("bo.orders.columns.cut")}</th>
            <th scope="col">{t("bo.orders.columns.matrix")}</th>
            <th scope="col">{t("bo.orders.columns.files")}</th>
          </tr>
        </thead>
        <tbody>
          {patients.map((patient) => (
            <tr key={patient.id}>
              <th scope="row">
                {patient.name}
                <div className="small muted">{patient.folder}</div>
                {patient.comment ? <div className="small bo-patient-comment">{patient.comment}</div> : null}
              </th>
              <td>{patient.material ? t(MATERIAL_LABELS[patient.material]) : "—"}</td>
              <td>{patient.cut ? t(CUT_LABELS[patient.cut]) : "—"}</td>
              <td>{patient.matrix ? t(MATRIX_LABELS[patient.matrix]) : "—"}</td>
              <td className="bo-files">
                {FILE_KINDS.map(({ type, label }) => (
                  <div key={type} className={patient.fileCounts[type] ? "small" : "small muted"}>
                    {countText(t, patient, type, label)}
                  </div>
                ))}
                {hasFiles(patient) ? (
                  <ListLink to={`${filesUrl}#${patientFilesId(patient.folder)}`} className="small">
                    {t("bo.orders.files.open")}
                  </ListLink>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
