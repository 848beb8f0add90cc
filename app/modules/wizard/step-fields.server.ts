import type { Order, Patient } from "~db/schema";
import type { DB } from "~/modules/db/db.server";
import { MARKET_TRAITS, type Market } from "~/modules/market/market";
import { isSkippedStep, STEP_FILE_TYPE } from "./navigation";
import { type ActionFailure, typedValues } from "./replies.server";
import { checkContacts, checkDelivery, type FieldErrors, fieldProblem, type LimitedField, readChoice, readContacts, readDelivery, readInFlight, readText } from "./validation";
import { uploadsOnTheWay } from "~/modules/uploads/tus.server";
import { filesOf } from "~/modules/orders/files.server";
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
export async function saveStepFields(db: DB, order: Order, patient: Patient | null, step: number, form: FormData, market: Market): Promise<FieldErrors> {
  if (step === 2) {
    const contacts = readContacts(form);
    const { store, problems } = storable({
      email: contacts.email,
      phone: contacts.phone,
    });
    await updateDraft(db, order.id, store);
    return problems;
  }
  if (step === 3) {
    const delivery = readDelivery(form);
    const { store, problems } = storable({
      full_name: delivery.full_name,
      address: delivery.address,
      delivery_comment: delivery.delivery_comment,
    });
    await updateDraft(db, order.id, store);
    return problems;
  }
  if (patient && step === 6) {
    const matrixType = MARKET_TRAITS[market].softMatrix ? readChoice(form, "matrix_type", ["soft", "hard"] as const) : "hard";
    if (matrixType)
      await updatePatient(db, order.id, patient.id, {
        matrix_type: matrixType,
      });
  } else if (patient && step === 8) {
    const material = readChoice(form, "material_type", ["single_layer", "three_layer"] as const);
    if (material)
      await updatePatient(db, order.id, patient.id, {
        material_type: material,
      });
  } else if (patient && step === 9) {
    const cut = readChoice(form, "cut_type", ["wavy", "straight"] as const);
    const { store, problems } = storable({
      additional_comments: readText(form, "additional_comments"),
    });
    await updatePatient(db, order.id, patient.id, {
      ...(cut ? { cut_type: cut } : {}),
      ...store,
    });
    return problems;
  }
  return {};
}

/** The checks that must pass before "next" (customer-side §2 forward conditions, §5). */
export async function checkStep(step: number, order: Order, patient: Patient | null, patientCount: number, form: FormData, market: Market): Promise<ActionFailure | null> {
  const skips = skipsOf(patient);
  if (isSkippedStep(step, skips)) return null;
  const errors: FieldErrors = {};
  if (step === 2) Object.assign(errors, checkContacts(readContacts(form)));
  if (step === 3) Object.assign(errors, checkDelivery(readDelivery(form), MARKET_TRAITS[market].domesticNotices));
  if (step === 4 && patientCount === 0) errors.patient_name = "wizard.errors.patientRequired";
  if (step >= 5 && step <= 10 && !patient) return { errors: {}, formError: "wizard.errors.noPatientSelected" };
  if (patient) {
    if (step === 5 && !skips.skipMatrix && filesOf(patient, "matrix").length === 0) errors.files = "wizard.errors.matrixFilesRequired";
    if (step === 6 && !patient.matrix_type && !readChoice(form, "matrix_type", ["soft", "hard"] as const) && MARKET_TRAITS[market].softMatrix) errors.matrix_type = "wizard.errors.matrixTypeRequired";
    if (step === 7 && !skips.skipAligners && filesOf(patient, "aligners").length === 0) errors.files = "wizard.errors.alignerFilesRequired";
    if (step === 8 && !readChoice(form, "material_type", ["single_layer", "three_layer"] as const) && !patient.material_type) errors.material_type = "wizard.errors.materialRequired";
    if (step === 9 && !readChoice(form, "cut_type", ["wavy", "straight"] as const) && !patient.cut_type) errors.cut_type = "wizard.errors.cutRequired";
    const commentProblem = step === 9 ? fieldProblem("additional_comments", readText(form, "additional_comments")) : null;
    if (commentProblem) errors.additional_comments = commentProblem;
    if (step === 10 && !skips.skipRetainers && filesOf(patient, "retainer").length === 0) errors.files = "wizard.errors.retainerFilesRequired";
  }
  // With JavaScript a step's files go up in the background: chosen and on their way is enough to move on (ADR 054).
  if (errors.files && patient && (await uploadsOnTheWay(order.id, patient.id, STEP_FILE_TYPE[step]!, readInFlight(form)))) delete errors.files;
  return Object.keys(errors).length ? { errors, values: typedValues(form) } : null;
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
  if (patients.length === 0) return { step: 4, error: "wizard.errors.patientRequired" };
  for (const patient of patients) {
    const files = filesOf(patient, "matrix").length + filesOf(patient, "aligners").length + filesOf(patient, "retainer").length;
    if (files === 0) return { step: 5, error: "wizard.errors.patientWithoutFiles" };
    // A step passed while its files were still going up (ADR 054) is paid for only once they are stored.
    if (!patient.skip_matrix && filesOf(patient, "matrix").length === 0) return { step: 5, error: "wizard.errors.matrixFilesRequired" };
    if (!patient.skip_aligners && filesOf(patient, "aligners").length === 0) return { step: 7, error: "wizard.errors.alignerFilesRequired" };
    if (!patient.skip_retainers && filesOf(patient, "retainer").length === 0) return { step: 10, error: "wizard.errors.retainerFilesRequired" };
    if (filesOf(patient, "aligners").length > 0 && !patient.skip_aligners && (!patient.material_type || !patient.cut_type)) return { step: 8, error: "wizard.errors.materialRequired" };
    if (filesOf(patient, "matrix").length > 0 && !patient.skip_matrix && !patient.matrix_type && MARKET_TRAITS[market].softMatrix) return { step: 6, error: "wizard.errors.matrixTypeRequired" };
  }
  return null;
}
