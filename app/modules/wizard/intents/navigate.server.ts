import { redirect } from "@remix-run/node";
import { isDatabaseUnavailable } from "~/modules/db/unavailable";
import { failureCause } from "~/modules/http/answers/section.server";
import { redirectWithToast, type Toast } from "~/modules/http/answers/toast.server";
import { navigate, returnStep, type WizardAction } from "../navigation";
import { fail } from "../replies.server";
import { checkStep, saveStepFields } from "../step-fields.server";
import type { FieldErrors } from "../validation";
import type { Order, Patient } from "~db/schema";
import { listPatients, updatePatient } from "~/modules/orders/patients.server";
import { OrderFrozenError, setWizardStep } from "~/modules/orders/drafts.server";
import { SKIP_QUESTION, skipClearedByUpload, skipsOf } from "~/modules/wizard/navigation";
import { LAST_STEP, stepAt, type UploadType, uploadStepOf } from "../steps";
import { filesOf, SKIP_COLUMNS } from "~/modules/orders/files.server";
import { setStepAside } from "~/modules/orders/set-aside.server";
import { uploadsOnTheWay } from "~/modules/uploads/tus.server";
import type { IntentArgs } from "./types";
import { logger } from "~/modules/log/logger.server";

/**
 * next, back, the skips and "back to patient": saves what the step's form carries, checks the step
 * before "next", then moves (navigation.ts).
 */
export async function moveThroughSteps({ db, order, patients, patient, step, form, typed, uploadToast }: IntentArgs, action: WizardAction) {
  let unsaved: FieldErrors;
  try {
    unsaved = await saveStepFields(db, order, patient, step, form, order.market);
  } catch (error) {
    if (error instanceof OrderFrozenError || isDatabaseUnavailable(error)) throw error;
    logger.error("wizard step not saved:", error);
    // Said in place with what was typed kept (customer side §8 "Ошибка обновления").
    return fail(
      {
        errors: {},
        values: typed,
        saveFailure: {
          title: "failures.updateTitle",
          message: "failures.updateText",
          values: { causeKey: failureCause(error) },
        },
      },
      500,
    );
  }
  if (action !== "next" && Object.keys(unsaved).length) return fail({ errors: unsaved, values: typed });
  if (action === "next") {
    const reread = async () => (patient ? (await listPatients(db, order.id)).find((p) => p.id === patient.id) ?? patient : null);
    const check = async () => checkStep({ step, order, patient: await reread(), patientCount: patients.length, form, typed, market: order.market });
    let failure = await check();
    // A file in flight that ended between the read above and the look at the upload store is
    // recorded by now (the upload is dropped only after its file is recorded): read once more (ADR 054).
    if (failure?.errors.files && form.in_flight.length) failure = await check();
    if (failure) {
      if (uploadToast) return redirectWithToast("/order", uploadToast);
      return fail(failure);
    }
  }
  // Skipping a step that holds files, or has files on their way, leaves them out of the order: asked once (ADR 057).
  const upload = stepAt(step).upload;
  const skippedType = upload?.skip.intent === action ? upload.type : undefined;
  if (skippedType && patient && form.confirm_skip !== "yes" && (filesOf(patient, skippedType).length > 0 || form.in_flight.length > 0)) {
    return fail({ errors: {}, formError: SKIP_QUESTION, values: typed });
  }
  const unskipped = action === "next" && upload && patient && (await comesBack(order, patient, upload.type, form.in_flight)) ? skipClearedByUpload(upload.type) : {};
  const move = navigate(step, action, { ...skipsOf(patient), ...unskipped });
  if (patient && upload && move.setSkips?.[upload.skip.flag]) {
    // A confirmed skip sets the step's files aside: out of the order, kept to be restored (ADR 087).
    await setStepAside(db, order.id, patient.id, upload.type);
  } else if (patient && upload && Object.keys(unskipped).length) {
    const columns = SKIP_COLUMNS[upload.type];
    await updatePatient(db, order.id, patient.id, { [columns.flag]: false, [columns.at]: null, [columns.back]: new Date() });
  }
  // A step opened from the summary leads back there once its part is done (ADR 060).
  const to = order.wizard_returns && action === "next" ? returnStep(step, { ...skipsOf(patient), ...unskipped }) : move.step;
  await setWizardStep(db, order.id, to, order.wizard_returns && action === "next" && to !== LAST_STEP);
  const skipped = upload?.skip.intent === action ? upload.skip.toast : null;
  const toast: Toast | null =
    uploadToast ??
    (skipped
      ? { type: "info", title: "wizard.toasts.skippedTitle", description: skipped }
      : action === "back_to_patient"
        ? { type: "info", title: "wizard.toasts.addPatientTitle", description: "wizard.toasts.addPatient" }
        : null);
  return toast ? redirectWithToast("/order", toast) : redirect("/order");
}

/**
 * A skipped upload step the doctor came back to and gave files goes on as not skipped (DESIGN §9:
 * uploading on a skipped step clears its flag), so its files are billed and the steps behind it
 * asked: files in the order, or uploads of this step on their way that were started after the skip.
 * The files a confirmed skip set aside bring nothing back: only "Вернуть в заказ" does (ADR 087).
 */
async function comesBack(order: Order, patient: Patient, type: UploadType, inFlight: string[]): Promise<boolean> {
  if (!skipsOf(patient)[uploadStepOf(type).upload.skip.flag]) return false;
  if (filesOf(patient, type).length > 0) return true;
  const skippedAt = patient[SKIP_COLUMNS[type].at];
  return inFlight.length > 0 && uploadsOnTheWay(order.id, patient.id, type, inFlight, skippedAt ? new Date(skippedAt) : undefined);
}

/** A plain "upload" button (and any intent the wizard does not know): files are stored, the step stays. */
export async function keepStep({ uploadToast }: IntentArgs) {
  return uploadToast ? redirectWithToast("/order", uploadToast) : redirect("/order");
}
