import { Link } from "@remix-run/react";
import { Field } from "~/components/field";
import { useTranslation } from "~/components/i18n/i18n-context";
import { TextField } from "../fields";
import type { StepProps } from "./types";

/** The consent as the step shows it: as sent with a refused form, else as given before and not withdrawn (ADR 087). */
export const consentShown = (values: Record<string, string>, given: boolean): string | undefined => values.consent ?? (given ? "on" : undefined);

export function DeliveryStep({ data, errors, values }: StepProps) {
  const { t } = useTranslation();
  return (
    <div className="stack">
      <TextField name="full_name" label="wizard.fields.fullName" autoComplete="name" required defaultValue={values.full_name ?? data.order?.fullName} error={errors.full_name} />
      <TextField name="address" label="wizard.fields.address" autoComplete="street-address" required multiline defaultValue={values.address ?? data.order?.address} error={errors.address} />
      <TextField name="delivery_comment" label="wizard.fields.deliveryComment" multiline defaultValue={values.delivery_comment ?? data.order?.deliveryComment} error={errors.delivery_comment} />
      {data.traits.domesticNotices ? (
        <Field
          field={{ id: "field-consent", name: "consent", errors: errors.consent ? [errors.consent] : undefined, initialValue: consentShown(values, data.consentGiven) }}
          type="checkbox"
          label={
            <>
              {t("wizard.fields.consentBefore")}{" "}
              <Link to="/data-consent" target="_blank">
                {t("wizard.fields.consentLink")}
              </Link>
            </>
          }
        />
      ) : (
        <p className="muted">
          {t("wizard.fields.dataTermsBefore")}{" "}
          <Link to="/data-consent" target="_blank">
            {t("wizard.fields.dataTermsLink")}
          </Link>
        </p>
      )}
    </div>
  );
}
