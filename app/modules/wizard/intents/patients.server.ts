import { redirect } from "@remix-run/node";
import type { Patient } from "~db/schema";
import { isDatabaseUnavailable } from "~/modules/db/unavailable";
import { failureCause } from "~/modules/http/section.server";
import { redirectWithToast } from "~/modules/http/toast.server";
import { fail } from "../replies.server";
import { fieldProblem, readText } from "../validation";
import { addPatient as addOrderPatient } from "~/modules/orders/patients.server";
import { OrderFrozenError, setWizardStep, updateDraft } from "~/modules/orders/drafts.server";
import type { IntentArgs } from "./types";
import { logger } from "~/modules/log/logger.server";

/** "select_patient" (the chosen id in the form) or "select_patient:<id>": makes a patient of the order the current one. */
export async function selectPatient({ db, order, patients, form, argument }: IntentArgs) {
  const wanted = argument ?? form.get("patientId");
  const chosen = patients.find((p) => p.id === wanted);
  if (chosen) await updateDraft(db, order.id, { current_patient_id: chosen.id });
  return redirect("/order");
}

/** "Add patient" (step 4): the name is required and checked like every stored text. */
export async function addPatient({ db, order, form }: IntentArgs) {
  const name = readText(form, "patient_name");
  if (!name)
    return fail({
      errors: { patient_name: "wizard.errors.patientNameRequired" },
    });
  const nameProblem = fieldProblem("patient_name", name);
  if (nameProblem)
    return fail({
      errors: { patient_name: nameProblem },
      values: { patient_name: name },
    });
  let added: Patient;
  try {
    added = await addOrderPatient(db, order, name);
  } catch (error) {
    if (error instanceof OrderFrozenError || isDatabaseUnavailable(error)) throw error;
    logger.error("patient not added:", error);
    // Said in place with the typed name kept (customer side §5, §8).
    const message = failureCause(error) === "failures.causes.database" ? "wizard.errors.addPatientFailed" : "failures.addPatientUnexpected";
    return fail(
      {
        errors: {},
        values: { patient_name: name },
        saveFailure: { title: "failures.errorTitle", message },
      },
      500,
    );
  }
  await setWizardStep(db, order.id, 4);
  return redirectWithToast("/order", {
    type: "success",
    title: "wizard.toasts.patientAddedTitle",
    description: "wizard.toasts.patientAdded",
    values: { name: added.patient_name },
  });
}
