import { redirect } from "@remix-run/node";
import type { Patient } from "~db/schema";
import { isDatabaseUnavailable } from "~/modules/db/unavailable";
import { failureCause } from "~/modules/http/answers/section.server";
import { redirectWithToast, type Toast } from "~/modules/http/answers/toast.server";
import { fail } from "../replies.server";
import { patientNameSchema } from "../forms";
import { fieldErrors } from "../validation";
import { addPatient as addOrderPatient, listPatients } from "~/modules/orders/patients.server";
import { OrderFrozenError, setWizardStep, updateDraft } from "~/modules/orders/drafts.server";
import { moveThroughSteps } from "./navigate.server";
import type { IntentArgs } from "./types";
import { stepNumber } from "../steps";
import { logger } from "~/modules/log/logger.server";

/** "select_patient" (the chosen id in the form) or "select_patient:<id>": makes a patient of the order the current one. */
export async function selectPatient({ db, order, patients, form, argument }: IntentArgs) {
  const wanted = argument ?? form.patientId;
  const chosen = patients.find((p) => p.id === wanted);
  if (chosen) await updateDraft(db, order.id, { current_patient_id: chosen.id });
  return redirect("/order");
}

/** "Add patient" (step 4): the name is required and checked like every stored text. */
export async function addPatient(args: IntentArgs) {
  const added = await addTypedPatient(args);
  if (!("patient" in added)) return added.refusal;
  await setWizardStep(args.db, args.order.id, stepNumber("patient"));
  return redirectWithToast("/order", addedToast(added.patient));
}

/**
 * Step 4's "next" with a name typed: that patient is added and the wizard moves on, as if "add
 * patient" had been pressed first (customer side §2: a typed name enables "next"). Without a name it
 * is the plain "next", refused while the order has no patient.
 */
export async function nextWithTypedPatient(args: IntentArgs) {
  if (!args.form.patient_name) return moveThroughSteps(args, "next");
  const added = await addTypedPatient(args);
  if (!("patient" in added)) return added.refusal;
  const patients = await listPatients(args.db, args.order.id);
  const patient = patients.find((item) => item.id === added.patient.id) ?? added.patient;
  return moveThroughSteps({ ...args, patients, patient, uploadToast: addedToast(added.patient) }, "next");
}

const addedToast = (patient: Patient): Toast => ({
  type: "success",
  title: "wizard.toasts.patientAddedTitle",
  description: "wizard.toasts.patientAdded",
  values: { name: patient.patient_name },
});

/** The typed name added as a patient of the order, or the answer that says why not (in place, name kept). */
async function addTypedPatient({ db, order, form }: IntentArgs): Promise<{ patient: Patient } | { refusal: ReturnType<typeof fail> }> {
  const checked = patientNameSchema.safeParse({ patient_name: form.patient_name || undefined });
  // Nothing typed is said without a value to keep; a name refused is given back as typed.
  if (!checked.success) return { refusal: fail({ errors: fieldErrors(checked), ...(form.patient_name ? { values: { patient_name: form.patient_name } } : {}) }) };
  const name = checked.data.patient_name;
  try {
    return { patient: await addOrderPatient(db, order, name) };
  } catch (error) {
    if (error instanceof OrderFrozenError || isDatabaseUnavailable(error)) throw error;
    logger.error("patient not added:", error);
    // Said in place with the typed name kept (customer side §5, §8).
    const message = failureCause(error) === "failures.causes.database" ? "wizard.errors.addPatientFailed" : "failures.addPatientUnexpected";
    return {
      refusal: fail(
        {
          errors: {},
          values: { patient_name: name },
          saveFailure: { title: "failures.errorTitle", message },
        },
        500,
      ),
    };
  }
}
