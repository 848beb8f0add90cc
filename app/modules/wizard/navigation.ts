import type { Patient } from "~db/schema";

/**
 * Wizard navigation (DESIGN §4.9): one pure function decides where every button leads.
 * Steps: 1 info, 2 contacts, 3 delivery, 4 patient, 5 matrix upload, 6 matrix type, 7 aligner
 * upload, 8 material, 9 cut, 10 retainer upload, 11 summary.
 *
 * Skip flags belong to the current patient. Upload steps (5, 7, 10) always render, so a doctor who
 * skipped can still upload (which clears the flag); the steps behind a skipped upload (6; 8 and 9)
 * are passed over in both directions.
 */
export const FIRST_STEP = 1;
export const LAST_STEP = 11;
export const PATIENT_STEP = 4;
export const UPLOAD_STEPS = { matrix: 5, aligners: 7, retainers: 10 } as const;

/** Upload steps and the file type each collects. */
export const STEP_FILE_TYPE: Partial<Record<number, "matrix" | "aligners" | "retainer">> = { 5: "matrix", 7: "aligners", 10: "retainer" };

export type WizardAction = "next" | "back" | "skip_matrix" | "skip_aligners" | "skip_retainers" | "back_to_patient" | "add_patient";

export interface Skips {
  skipMatrix: boolean;
  skipAligners: boolean;
  skipRetainers: boolean;
}

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

/** Steps that render only their navigation for this patient. */
export function isSkippedStep(step: number, skips: Skips): boolean {
  return (step === 6 && skips.skipMatrix) || ((step === 8 || step === 9) && skips.skipAligners);
}

/** Steps the spec counts as skipped, for progress and summaries (upload steps included). */
export function countsAsSkipped(step: number, skips: Skips): boolean {
  return ((step === 5 || step === 6) && skips.skipMatrix) || (step >= 7 && step <= 9 && skips.skipAligners) || (step === 10 && skips.skipRetainers);
}

export const hasBackButton = (step: number) => step !== 1 && step !== UPLOAD_STEPS.matrix;

export function clampStep(value: unknown): number {
  const step = typeof value === "number" ? value : Number.parseInt(String(value ?? ""), 10);
  return Number.isInteger(step) && step >= FIRST_STEP && step <= LAST_STEP ? step : FIRST_STEP;
}

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
  switch (action) {
    case "next":
      return { step: forward(step, skips) };
    case "back":
      return hasBackButton(step) ? { step: backward(step, skips) } : { step };
    case "skip_matrix":
      return step === UPLOAD_STEPS.matrix ? { step: 7, setSkips: { skipMatrix: true } } : { step };
    case "skip_aligners":
      return step === UPLOAD_STEPS.aligners ? { step: 10, setSkips: { skipAligners: true } } : { step };
    case "skip_retainers":
      return step === UPLOAD_STEPS.retainers ? { step: 11, setSkips: { skipRetainers: true } } : { step };
    case "back_to_patient":
      return step >= 5 ? { step: PATIENT_STEP } : { step };
    case "add_patient":
      return { step: PATIENT_STEP };
  }
}

/** Uploading on a skipped upload step clears its flag. */
export function skipClearedByUpload(fileType: "matrix" | "aligners" | "retainer"): Partial<Skips> {
  return fileType === "matrix" ? { skipMatrix: false } : fileType === "aligners" ? { skipAligners: false } : { skipRetainers: false };
}

export const progressPercent = (step: number) => Math.round((clampStep(step) / LAST_STEP) * 100);

/** What a skip of a step that holds files is answered with (ADR 057); the page then sends the next skip confirmed. */
export const SKIP_QUESTION = "wizard.errors.skipHasFiles";
