import { Form } from "@remix-run/react";
import { useTranslation } from "~/components/i18n/i18n-context";
import type { StepData, Patient } from "./types";

export function PatientSelector({ data, patient }: { data: StepData; patient: Patient | null }) {
  const { t } = useTranslation();
  if (!patient) return null;
  if (data.patients.length < 2) {
    return (
      <p className="patient-banner">
        {t("wizard.patientFor")} <strong>{patient.name}</strong>
      </p>
    );
  }
  return (
    <Form method="post" className="patient-banner patient-select" reloadDocument>
      <label htmlFor="patient-select">{t("wizard.patientFor")}</label>
      <select
        id="patient-select"
        name="patientId"
        defaultValue={patient.id}
        onChange={(event) => event.currentTarget.form?.requestSubmit(event.currentTarget.form.querySelector<HTMLButtonElement>("button[value=select_patient]"))}
      >
        {data.patients.map((item) => (
          <option key={item.id} value={item.id}>
            {item.name}
          </option>
        ))}
      </select>
      <button type="submit" name="intent" value="select_patient" className="button button-small button-secondary">
        {t("wizard.step4.select")}
      </button>
    </Form>
  );
}
