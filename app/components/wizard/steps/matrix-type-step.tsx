import { ChoiceField } from "../fields";
import type { StepProps } from "./types";

export function MatrixTypeStep({ data, patient, errors }: StepProps) {
  const options = [
    ...(data.traits.softMatrix
      ? [
          {
            value: "soft",
            label: "wizard.matrix.soft",
            description: "wizard.products.softMatrix",
          },
        ]
      : []),
    {
      value: "hard",
      label: "wizard.matrix.hard",
      description: "wizard.products.hardMatrix",
    },
  ];
  return <ChoiceField name="matrix_type" legend="wizard.matrix.legend" options={options} value={patient?.matrixType ?? (data.traits.softMatrix ? null : "hard")} error={errors.matrix_type} />;
}
