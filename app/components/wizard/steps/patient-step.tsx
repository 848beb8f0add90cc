import { useTranslation } from "~/components/i18n/i18n-context";
import { TextField } from "../fields";
import type { StepProps } from "./types";

export function PatientStep({ data, patient, errors, values }: StepProps) {
  const { t } = useTranslation();
  return (
    <div className="stack">
      {data.patients.length ? (
        <fieldset className="choices">
          <legend>{t("wizard.step4.patients")}</legend>
          {data.patients.map((item) => (
            <div key={item.id} className="patient-row">
              <span>
                <strong>{item.name}</strong> <span className="muted small">{item.folder}</span>
              </span>
              {item.id === patient?.id ? (
                <span className="badge badge-paid">{t("wizard.step4.selected")}</span>
              ) : (
                <button type="submit" name="intent" value={`select_patient:${item.id}`} formNoValidate className="button button-small button-secondary">
                  {t("wizard.step4.select")}
                </button>
              )}
            </div>
          ))}
        </fieldset>
      ) : null}
      <TextField name="patient_name" label="wizard.fields.patientName" hint="wizard.step4.hint" error={errors.patient_name} defaultValue={values.patient_name} />
      <div>
        <button type="submit" name="intent" value="add_patient" className="button button-secondary">
          {t("wizard.buttons.addPatient")}
        </button>
      </div>
    </div>
  );
}
