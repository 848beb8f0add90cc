import type { Order, Patient } from "~db/schema";
import type { DB } from "~/modules/db/db.server";
import { MARKET_TRAITS, type Market } from "~/modules/market/market";
import { isSkippedStep, STEP_FILE_TYPE } from "./navigation";
import type { ActionFailure } from "./replies.server";
import type { WizardForm } from "./forms";
import { filesProblem, patientProblem } from "./forward";
import { checkContacts, checkDelivery, type FieldErrors, fieldProblem, type LimitedField, stepFieldErrors } from "./validation";
import { uploadsOnTheWay } from "~/modules/uploads/tus.server";
import { filesOf, unconfirmedFiles } from "~/modules/orders/files.server";
import { skipsOf } from "~/modules/wizard/navigation";
import { updateDraft } from "~/modules/orders/drafts.server";
import { updatePatient } from "~/modules/orders/patients.server";

/** The typed texts that may be stored ("" as null), and the problem of each one that may not (control characters, too long). */
function storable<K extends LimitedField>(values: Record<K, string>): { store: Partial<Record<K, string | null>>; problems: FieldErrors } {
  const store: Partial<Record<K, string | null>> = {};
  const problems: FieldErrors = {};
  for (const [name, value] of Object.entries<string>(values) as Array<[K, string]>) {
    const problem = fieldProblem(name, value);
    if (problem) problems[name] = problem;
    else store[name] = value || null;
  }
  return { store, problems };
}

/**
 * Saves what the current step's form carries (also on "back" and the skips, so nothing typed is
 * lost) and returns the problems of the texts it could not save; the caller then keeps the doctor
 * on the step with them.
 */
export async function saveStepFields(db: DB, order: Order, patient: Patient | null, step: number, form: WizardForm, market: Market): Promise<FieldErrors> {
  if (step === 2) {
    const { store, problems } = storable({
      email: form.email ?? "",
      phone: form.phone ?? "",
    });
    await updateDraft(db, order.id, store);
    return problems;
  }
  if (step === 3) {
    const { store, problems } = storable({
      full_name: form.full_name ?? "",
      address: form.address ?? "",
      delivery_comment: form.delivery_comment ?? "",
    });
    await updateDraft(db, order.id, store);
    return problems;
  }
  if (patient && step === 6) {
    const matrixType = MARKET_TRAITS[market].softMatrix ? form.matrix_type : "hard";
    if (matrixType)
      await updatePatient(db, order.id, patient.id, {
        matrix_type: matrixType,
      });
  } else if (patient && step === 8) {
    const material = form.material_type;
    if (material)
      await updatePatient(db, order.id, patient.id, {
        material_type: material,
      });
  } else if (patient && step === 9) {
    const cut = form.cut_type;
    const { store, problems } = storable({
      additional_comments: form.additional_comments ?? "",
    });
    await updatePatient(db, order.id, patient.id, {
      ...(cut ? { cut_type: cut } : {}),
      ...store,
    });
    return problems;
  }
  return {};
}

/**
 * The checks that must pass before "next" (customer-side §2 forward conditions, §5): the step's
 * schema on the parsed form, and the forward rule the button follows (forward.ts) on the order as
 * it stands. `typed` is the form as sent, given back with a refusal.
 */
export async function checkStep(step: number, order: Order, patient: Patient | null, patientCount: number, form: WizardForm, typed: Record<string, string>, market: Market): Promise<ActionFailure | null> {
  const skips = skipsOf(patient);
  if (isSkippedStep(step, skips)) return null;
  const errors: FieldErrors = {};
  const noPatient = step === 4 ? patientProblem(patientCount) : null;
  if (noPatient) errors.patient_name = noPatient;
  if (step >= 5 && step <= 10 && !patient) return { errors: {}, formError: "wizard.errors.noPatientSelected" };
  if (patient) {
    const fileType = STEP_FILE_TYPE[step];
    const files = fileType ? { stored: filesOf(patient, fileType).length, skips } : null;
    const missing = files ? filesProblem(step, { ...files, onTheWay: false }) : null;
    if (missing) errors.files = missing;
    if (step === 6 && !patient.matrix_type && !form.matrix_type && MARKET_TRAITS[market].softMatrix) errors.matrix_type = "wizard.errors.matrixTypeRequired";
    if (step === 8 && !form.material_type && !patient.material_type) errors.material_type = "wizard.errors.materialRequired";
    if (step === 9 && !form.cut_type && !patient.cut_type) errors.cut_type = "wizard.errors.cutRequired";
    // With JavaScript a step's files go up in the background: chosen and on their way is enough to move on (ADR 054).
    if (missing && files && !filesProblem(step, { ...files, onTheWay: await uploadsOnTheWay(order.id, patient.id, fileType!, form.in_flight) })) delete errors.files;
  }
  // The typed fields last, in the order the step shows them (step 9: the cut, then the comment).
  Object.assign(errors, stepFieldErrors(step, form, MARKET_TRAITS[market].domesticNotices));
  return Object.keys(errors).length ? { errors, values: typed } : null;
}

/** Everything the summary needs before payment; the first problem points the doctor to its step. */
export function checkComplete(order: Order, patients: Patient[], market: Market): { step: number; error: string } | null {
  const contactErrors = checkContacts({
    email: order.email ?? "",
    phone: order.phone ?? "",
  });
  if (Object.keys(contactErrors).length) return { step: 2, error: Object.values(contactErrors)[0]! };
  const deliveryErrors = checkDelivery(
    {
      full_name: order.full_name ?? "",
      address: order.address ?? "",
      delivery_comment: "",
      consent: true,
    },
    false,
  );
  if (Object.keys(deliveryErrors).length) return { step: 3, error: Object.values(deliveryErrors)[0]! };
  const noPatient = patientProblem(patients.length);
  if (noPatient) return { step: 4, error: noPatient };
  for (const patient of patients) {
    const files = filesOf(patient, "matrix").length + filesOf(patient, "aligners").length + filesOf(patient, "retainer").length;
    if (files === 0) return { step: 5, error: "wizard.errors.patientWithoutFiles" };
    // A step passed while its files were still going up (ADR 054) is paid for only once they are stored.
    for (const step of [5, 7, 10]) {
      const missing = filesProblem(step, { stored: filesOf(patient, STEP_FILE_TYPE[step]!).length, skips: skipsOf(patient), onTheWay: false });
      if (missing) return { step, error: missing };
    }
    // Every file's jaw (and an aligner's step) declared where its name did not give them (ADR 058).
    for (const step of [5, 7, 10]) {
      if (unconfirmedFiles(filesOf(patient, STEP_FILE_TYPE[step]!)).length > 0) return { step, error: "wizard.errors.declareFiles" };
    }
    if (filesOf(patient, "aligners").length > 0 && !patient.skip_aligners && (!patient.material_type || !patient.cut_type)) return { step: 8, error: "wizard.errors.materialRequired" };
    if (filesOf(patient, "matrix").length > 0 && !patient.skip_matrix && !patient.matrix_type && MARKET_TRAITS[market].softMatrix) return { step: 6, error: "wizard.errors.matrixTypeRequired" };
  }
  return null;
}
