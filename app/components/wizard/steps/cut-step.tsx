import { ChoiceField, TextField } from "../fields";
import type { StepProps } from "./types";

export function CutStep({ patient, errors, values }: StepProps) {
  return (
    <div className="stack">
      <ChoiceField
        name="cut_type"
        legend="wizard.cut.legend"
        options={[
          {
            value: "wavy",
            label: "wizard.cut.wavy",
            description: "wizard.cut.wavyText",
          },
          {
            value: "straight",
            label: "wizard.cut.straight",
            description: "wizard.cut.straightText",
          },
        ]}
        value={patient?.cutType}
        error={errors.cut_type}
      />
      <TextField name="additional_comments" label="wizard.fields.additionalComments" multiline defaultValue={values.additional_comments ?? patient?.comments} error={errors.additional_comments} />
    </div>
  );
}
