import { ChoiceField } from "../fields";
import type { StepProps } from "./types";

export function MaterialStep({ patient, errors }: StepProps) {
  return (
    <ChoiceField
      name="material_type"
      legend="wizard.material.legend"
      options={[
        {
          value: "single_layer",
          label: "wizard.material.singleLayer",
          description: "wizard.products.singleLayer",
        },
        {
          value: "three_layer",
          label: "wizard.material.threeLayer",
          description: "wizard.products.threeLayer",
        },
      ]}
      value={patient?.materialType}
      error={errors.material_type}
    />
  );
}
