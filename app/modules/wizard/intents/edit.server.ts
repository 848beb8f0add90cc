import { redirect } from "@remix-run/node";
import { changeOrderStatus, OrderTransitionError } from "~/modules/orders/orders.server";
import { actorOf } from "../order-access.server";
import { setWizardStep, updateDraft } from "~/modules/orders/drafts.server";
import type { IntentArgs } from "./types";
import { LAST_STEP, STEPS } from "../steps";

/** "Edit order": a handed-off order returns to draft at the summary, and its open payment attempt is cancelled. */
export async function returnToDraft({ db, order, viewer }: IntentArgs) {
  try {
    await changeOrderStatus(db, order.id, "draft", actorOf(viewer, order), {
      note: "returned to draft by the customer",
    });
  } catch (error) {
    if (!(error instanceof OrderTransitionError)) throw error;
  }
  await db.updateTable("payments").set({ status: "canceled", updated_at: new Date() }).where("order_id", "=", order.id).where("status", "in", ["created", "pending"]).execute();
  await setWizardStep(db, order.id, LAST_STEP);
  return redirect("/order");
}

/**
 * The summary's "изменить" ("change:<step>" or "change:<step>:<patient>"): opens that step, for that
 * patient, and its "next" leads back to the summary (ADR 060). A step or patient the order does not
 * have opens nothing.
 */
export async function changeStep({ db, order, patients, argument }: IntentArgs) {
  const [id = "", patientId] = (argument ?? "").split(":");
  const step = STEPS.find((item) => item.id === id && item.kind !== "info" && item.kind !== "summary");
  const patient = patientId === undefined ? null : patients.find((item) => item.id === patientId);
  if (!step || (step.perPatient && !patient)) return redirect("/order");
  if (patient) await updateDraft(db, order.id, { current_patient_id: patient.id });
  await setWizardStep(db, order.id, step.number, true);
  return redirect("/order");
}
