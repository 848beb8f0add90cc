import type { Patient } from "~db/schema";
import { clampStep, FIRST_STEP, LAST_STEP, type SkipFlag, type SkipIntent, type Skips, stepAt, stepNumber, UPLOAD_STEPS, type UploadType } from "./steps";

/**
 * Wizard navigation (DESIGN §4.9): one pure function decides where every button leads, by the step
 * table (steps.ts).
 *
 * Skip flags belong to the current patient. Upload steps always render, so a doctor who skipped can
 * still upload (which clears the flag); the steps behind a skipped upload (the matrix type; the
 * material and the cut) are passed over in both directions.
 */
export { clampStep, FIRST_STEP, LAST_STEP, type Skips };

export type WizardAction = "next" | "back" | SkipIntent | "back_to_patient" | "add_patient";

export const NO_SKIPS: Skips = { skipMatrix: false, skipAligners: false, skipRetainers: false };

/** The steps a patient skips, as stored on the patient. */
export const skipsOf = (patient: Patient | null | undefined): Skips => ({
  skipMatrix: Boolean(patient?.skip_matrix),
  skipAligners: Boolean(patient?.skip_aligners),
  skipRetainers: Boolean(patient?.skip_retainers),
});

export interface Move {
  step: number;
  /** Skip flags to store on the current patient. */
  setSkips?: Partial<Skips>;
}

const flagSet = (flag: SkipFlag | undefined, skips: Skips) => flag !== undefined && skips[flag];

/** Steps that render only their navigation for this patient. */
export const isSkippedStep = (step: number, skips: Skips): boolean => flagSet(stepAt(step).passedOverWhen, skips);

/** Steps the spec counts as skipped, for progress and summaries (upload steps included). */
export const countsAsSkipped = (step: number, skips: Skips): boolean => flagSet(stepAt(step).countsSkippedWhen, skips);

export const hasBackButton = (step: number) => stepAt(step).back;

function forward(from: number, skips: Skips): number {
  let step = Math.min(from + 1, LAST_STEP);
  while (step < LAST_STEP && isSkippedStep(step, skips)) step++;
  return step;
}

function backward(from: number, skips: Skips): number {
  let step = Math.max(from - 1, FIRST_STEP);
  while (step > FIRST_STEP && isSkippedStep(step, skips)) step--;
  return step;
}

export function navigate(from: number, action: WizardAction, skips: Skips): Move {
  const step = clampStep(from);
  const here = stepAt(step);
  switch (action) {
    case "next":
      return { step: forward(step, skips) };
    case "back":
      return here.back ? { step: backward(step, skips) } : { step };
    case "back_to_patient":
      return here.perPatient || here.kind === "summary" ? { step: stepNumber("patient") } : { step };
    case "add_patient":
      return { step: stepNumber("patient") };
    default: {
      // A skip moves on only from its own upload step.
      const skip = here.upload?.skip;
      return skip?.intent === action ? { step: stepNumber(skip.to), setSkips: { [skip.flag]: true } } : { step };
    }
  }
}

/** The part of the order a step belongs to: an upload and the choices behind it (steps passed over when it is skipped). */
const partOf = (step: number): SkipFlag | undefined => stepAt(step).upload?.skip.flag ?? stepAt(step).passedOverWhen;

/**
 * "next" on a step opened from the summary's "изменить" link (ADR 060): on through the rest of its
 * part (the aligners' material and cut after their files), then back to the summary.
 */
export function returnStep(from: number, skips: Skips): number {
  const part = partOf(from);
  const next = forward(clampStep(from), skips);
  return part !== undefined && stepAt(next).passedOverWhen === part ? next : LAST_STEP;
}

/** Uploading on a skipped upload step clears its flag. */
export const skipClearedByUpload = (type: UploadType): Partial<Skips> => {
  const step = UPLOAD_STEPS.find((item) => item.upload.type === type)!;
  return { [step.upload.skip.flag]: false };
};

export const progressPercent = (step: number) => Math.round((clampStep(step) / LAST_STEP) * 100);

/** What a skip of a step that holds files is answered with (ADR 057); the page then sends the next skip confirmed. */
export const SKIP_QUESTION = "wizard.errors.skipHasFiles";
