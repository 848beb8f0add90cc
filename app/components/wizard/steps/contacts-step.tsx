import { useTranslation } from "~/components/i18n/i18n-context";
import { TextField } from "../fields";
import type { StepProps } from "./types";

export function ContactsStep({ data, errors, values }: StepProps) {
  const { t } = useTranslation();
  return (
    <div className="stack">
      <TextField name="email" type="email" label="wizard.fields.email" autoComplete="email" required defaultValue={values.email ?? data.order?.email} error={errors.email} />
      <TextField
        name="phone"
        type="tel"
        label="wizard.fields.phone"
        autoComplete="tel"
        required
        placeholder="+7 (___) ___-__-__"
        defaultValue={values.phone ?? data.order?.phone}
        error={errors.phone}
      />
      {data.personalOffer ? <p className="note">{t("wizard.personalOffer")}</p> : null}
    </div>
  );
}
