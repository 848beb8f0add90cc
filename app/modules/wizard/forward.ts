import type { Skips } from "./steps";
import { stepAt } from "./steps";

/**
 * What "next" needs that the page can see too (customer side §2, ADR 047, ADR 054): one pure rule,
 * applied by the server's step check (`checkStep`) and followed by the forward button as the doctor
 * types and uploads (`forwardBlocked`), on the step table (steps.ts). Errors are translation keys.
 * Without server imports, so the page loads it as it is.
 */

/** Whether the patient skipped the upload step. */
export const uploadSkipped = (step: number, skips: Skips) => {
  const flag = stepAt(step).upload?.skip.flag;
  return flag !== undefined && skips[flag];
};

export interface StepFiles {
  /** The step's files stored on the patient. */
  stored: number;
  skips: Skips;
  /**
   * Files of this step chosen and on their way (ADR 054): on the server, uploads the form names in
   * flight that the upload store still holds; in the page, a file uploading or just stored that the
   * page's data does not list yet, or, without background uploads, files chosen in the form.
   */
  onTheWay: boolean;
}

/** An upload step needs its files unless skipped; files on their way count (ADR 054). */
export function filesProblem(step: number, files: StepFiles): string | null {
  const upload = stepAt(step).upload;
  if (!upload || uploadSkipped(step, files.skips)) return null;
  return files.stored === 0 && !files.onTheWay ? upload.filesRequired : null;
}

/** The patient step: an order needs a patient. */
export const patientProblem = (patientCount: number): string | null => (patientCount === 0 ? "wizard.errors.patientRequired" : null);

/** The delivery step on the domestic market: the consent to the processing of personal data. */
export const consentProblem = (required: boolean, consent: boolean): string | null => (required && !consent ? "wizard.errors.consentRequired" : null);

/** What the forward button knows of the step. */
export interface ForwardFacts {
  /** The step needs a patient and the order has none selected. */
  noPatient: boolean;
  /** The page is hydrated: what is typed is followed (without JavaScript the server answers). */
  following: boolean;
  patientCount: number;
  /** The patient step: a name typed, added as the order's patient by "next". */
  patientTyped: boolean;
  consentRequired: boolean;
  consent: boolean;
  /** The upload step's files, when the step is one and the order has a current patient. */
  files: StepFiles | null;
}

/** Why the forward button is disabled (a translation key the page says beside it), or null when it is not: the server's rule on what the page sees. */
export function forwardHeldBy(step: number, facts: ForwardFacts): string | null {
  if (facts.noPatient) return "wizard.errors.noPatientSelected";
  const here = stepAt(step);
  if (here.kind === "patient" && facts.following && patientProblem(facts.patientCount + (facts.patientTyped ? 1 : 0))) return "wizard.errors.patientNameRequired";
  if (here.asksConsent && facts.following) {
    const problem = consentProblem(facts.consentRequired, facts.consent);
    if (problem) return problem;
  }
  return facts.files !== null ? filesProblem(step, facts.files) : null;
}

/** Whether the forward button is disabled. */
export const forwardBlocked = (step: number, facts: ForwardFacts): boolean => forwardHeldBy(step, facts) !== null;
