import type { Order, Patient } from "~db/schema";
import type { DB } from "~/modules/db/db.server";
import { MARKET_TRAITS, type Market } from "~/modules/market/market";
import { isSkippedStep, skipsOf } from "./navigation";
import type { ActionFailure } from "./replies.server";
import type { WizardForm } from "./forms";
import { filesProblem, patientProblem } from "./forward";
import { STEPS, stepAt, stepNumber, type StepChoice, type StepDefinition, UPLOAD_STEPS } from "./steps";
import { checkContacts, checkDelivery, type FieldErrors, fieldProblem, type LimitedField, stepFieldErrors } from "./validation";
import { uploadsOnTheWay } from "~/modules/uploads/tus.server";
import { filesOf, unconfirmedFiles } from "~/modules/orders/files.server";
import { updateDraft } from "~/modules/orders/drafts.server";
import { updatePatient } from "~/modules/orders/patients.server";

/** The typed texts that may be stored ("" as null), and the problem of each one that may not (control characters, too long). */
function storable(form: WizardForm, fields: ReadonlyArray<LimitedField>): { store: Partial<Record<LimitedField, string | null>>; problems: FieldErrors } {
  const store: Partial<Record<LimitedField, string | null>> = {};
  const problems: FieldErrors = {};
  for (const name of fields) {
    const value = (form[name] as string | undefined) ?? "";
    const problem = fieldProblem(name, value);
    if (problem) problems[name] = problem;
    else store[name] = value || null;
  }
  return { store, problems };
}

/** The value a step's choice stores from the form: the one chosen, or the market's fixed one where the market does not ask. */
function chosen(choice: StepChoice, form: WizardForm, market: Market): string | null {
  if (choice.onlyWhen && !MARKET_TRAITS[market][choice.onlyWhen.trait]) return choice.onlyWhen.otherwise;
  return form[choice.field];
}

/** Whether a step's choice must still be made: asked on this market, and neither sent nor stored. */
function choiceMissing(choice: StepChoice, sent: string | null, patient: Patient, market: Market): boolean {
  if (choice.onlyWhen && !MARKET_TRAITS[market][choice.onlyWhen.trait]) return false;
  return !sent && !patient[choice.field];
}

/**
 * Saves what the current step's form carries (also on "back" and the skips, so nothing typed is
 * lost), by the step's entry in the table (steps.ts), and returns the problems of the texts it could
 * not save; the caller then keeps the doctor on the step with them.
 */
export async function saveStepFields(db: DB, order: Order, patient: Patient | null, step: number, form: WizardForm, market: Market): Promise<FieldErrors> {
  const here = stepAt(step);
  const { store, problems } = storable(form, here.saves?.fields ?? []);
  if (here.saves?.to === "order") {
    // The consent stays given while the step is edited again (from the summary, or "Назад"): kept until unticked (ADR 087).
    const consent = here.asksConsent && MARKET_TRAITS[market].domesticNotices ? { data_consent_at: form.consent ? (order.data_consent_at ?? new Date()) : null } : {};
    await updateDraft(db, order.id, { ...store, ...consent });
    return problems;
  }
  if (!patient || (!here.choice && !here.saves)) return problems;
  const choice = here.choice ? chosen(here.choice, form, market) : null;
  const changes = { ...(here.choice && choice ? { [here.choice.field]: choice } : {}), ...store };
  if (Object.keys(changes).length) await updatePatient(db, order.id, patient.id, changes);
  return problems;
}

/** What the step check reads: the step, the order as it stands, the form as parsed and as sent. */
export interface StepCheck {
  step: number;
  order: Order;
  patient: Patient | null;
  patientCount: number;
  form: WizardForm;
  /** The form as sent, given back with a refusal. */
  typed: Record<string, string>;
  market: Market;
}

/**
 * The checks that must pass before "next" (customer-side §2 forward conditions, §5), by the step's
 * entry in the table: the step's schema on the parsed form, and the forward rule the button follows
 * (forward.ts) on the order as it stands.
 */
export async function checkStep({ step, order, patient, patientCount, form, typed, market }: StepCheck): Promise<ActionFailure | null> {
  const here: StepDefinition = stepAt(step);
  const skips = skipsOf(patient);
  if (isSkippedStep(step, skips)) return null;
  const errors: FieldErrors = {};
  const noPatient = here.kind === "patient" ? patientProblem(patientCount) : null;
  if (noPatient) errors.patient_name = noPatient;
  if (here.perPatient && !patient) return { errors: {}, formError: "wizard.errors.noPatientSelected" };
  if (patient) {
    const type = here.upload?.type;
    const files = type ? { stored: filesOf(patient, type).length, skips } : null;
    const missing = files ? filesProblem(step, { ...files, onTheWay: false }) : null;
    if (missing) errors.files = missing;
    if (here.choice && choiceMissing(here.choice, form[here.choice.field], patient, market)) errors[here.choice.field] = here.choice.required;
    // With JavaScript a step's files go up in the background: chosen and on their way is enough to move on (ADR 054).
    if (missing && files && type && !filesProblem(step, { ...files, onTheWay: await uploadsOnTheWay(order.id, patient.id, type, form.in_flight) })) delete errors.files;
  }
  // The typed fields last, in the order the step shows them (the cut, then the comment).
  Object.assign(errors, stepFieldErrors(step, form, MARKET_TRAITS[market].domesticNotices));
  return Object.keys(errors).length ? { errors, values: typed } : null;
}

/**
 * Something that still stops payment (ADR 087): the summary names each one with a link to the step
 * that settles it (and back), and payment sends the doctor to the first.
 */
export interface OpenItem {
  step: number;
  /** The patient the step is for; null for the order's own steps (contacts, delivery, patients). */
  patientId: string | null;
  error: string;
  /** The names of the files still to be declared. */
  files?: string[];
}

/** Everything the summary needs before payment, in the order of the steps; a skipped step's files are not the order's and ask nothing. */
export function openItems(order: Order, patients: Patient[], market: Market): OpenItem[] {
  const items: OpenItem[] = [];
  const contactErrors = checkContacts({
    email: order.email ?? "",
    phone: order.phone ?? "",
  });
  if (Object.keys(contactErrors).length) items.push({ step: stepNumber("contacts"), patientId: null, error: Object.values(contactErrors)[0]! });
  const deliveryErrors = checkDelivery(
    {
      full_name: order.full_name ?? "",
      address: order.address ?? "",
      delivery_comment: "",
      consent: true,
    },
    false,
  );
  if (Object.keys(deliveryErrors).length) items.push({ step: stepNumber("delivery"), patientId: null, error: Object.values(deliveryErrors)[0]! });
  const noPatient = patientProblem(patients.length);
  if (noPatient) items.push({ step: stepNumber("patient"), patientId: null, error: noPatient });
  for (const patient of patients) {
    const skips = skipsOf(patient);
    const open = (step: number, error: string, files?: string[]) => items.push({ step, patientId: patient.id, error, ...(files ? { files } : {}) });
    if (UPLOAD_STEPS.every((step) => filesOf(patient, step.upload.type).length === 0)) {
      open(UPLOAD_STEPS[0]!.number, "wizard.errors.patientWithoutFiles");
      continue;
    }
    const included = UPLOAD_STEPS.filter((step) => !skips[step.upload.skip.flag]);
    // A step passed while its files were still going up (ADR 054) is paid for only once they are stored.
    for (const step of included) {
      const missing = filesProblem(step.number, { stored: filesOf(patient, step.upload.type).length, skips, onTheWay: false });
      if (missing) open(step.number, missing);
    }
    // Every file's jaw (and an aligner's step) declared where its name did not give them (ADR 058).
    for (const step of included) {
      const unconfirmed = unconfirmedFiles(filesOf(patient, step.upload.type));
      if (unconfirmed.length > 0) open(step.number, "wizard.errors.declareFiles", unconfirmed.map((file) => file.originalName));
    }
    // The choices of the steps behind each upload the patient has files for and did not skip.
    for (const upload of included) {
      if (filesOf(patient, upload.upload.type).length === 0) continue;
      for (const step of choicesBehind(upload.upload.skip.flag)) {
        if (step.choice && choiceMissing(step.choice, null, patient, market)) open(step.number, step.choice.required);
      }
    }
  }
  return items;
}

/** The first thing that stops payment, or null: payment sends the doctor to its step. */
export const checkComplete = (order: Order, patients: Patient[], market: Market): OpenItem | null => openItems(order, patients, market)[0] ?? null;

/** The choice steps passed over when this upload is skipped: the ones its files need. */
const choicesBehind = (flag: StepDefinition["passedOverWhen"]) => STEPS.filter((step) => step.choice && step.passedOverWhen === flag);
