import type { WizardLoaderData } from "~/modules/wizard/loader.server";

export type StepData = WizardLoaderData;
export type Patient = StepData["patients"][number];

export interface StepProps {
  data: StepData;
  patient: Patient | null;
  errors: Record<string, string>;
  values: Record<string, string>;
}
