import { redirect, type AppLoadContext, type ActionFunctionArgs } from "@remix-run/node";
import { getDb } from "~/modules/db/db.server";
import { intentHandler } from "~/modules/http/forms/intents";
import { getBrowserChoices, getRequestContext } from "~/modules/http/request/request-context.server";
import { parseSubmission, readSubmission } from "~/modules/http/forms/submission.server";
import { redirectWithToast } from "~/modules/http/answers/toast.server";
import { isMultipartRequest } from "~/modules/uploads/multipart.server";
import type { UploadResult } from "~/modules/uploads/upload-handler.server";
import { fileDeclarations, postedStep, wizardFormSchema } from "./forms";
import { startOrder } from "./intents/create-order.server";
import { changeStep, returnToDraft } from "./intents/edit.server";
import { keepStep, moveThroughSteps } from "./intents/navigate.server";
import { addPatient, nextWithTypedPatient, selectPatient } from "./intents/patients.server";
import { payOrder, startPayment } from "./intents/pay.server";
import { removeOrderFile } from "./intents/remove-file.server";
import { unskipStep } from "./intents/unskip.server";
import type { IntentArgs, IntentHandler } from "./intents/types";
import type { WizardAction } from "./navigation";
import { clampStep, LAST_STEP, stepAt, uploadTypeAt } from "./steps";
import { resolveOrder } from "./order-access.server";
import { receiveUploads } from "./receive-uploads.server";
import { answerInPlace } from "./in-place.server";
import { frozenToast, toastFromUploads, typedValues } from "./replies.server";
import { listPatients } from "~/modules/orders/patients.server";
import { declareFiles } from "~/modules/orders/files.server";
import { OrderFrozenError } from "~/modules/orders/drafts.server";

/** The buttons that move through the steps; "next" on the patient step first adds a typed name as a patient. */
const NAV_ACTIONS: WizardAction[] = ["back", "skip_matrix", "skip_aligners", "skip_retainers", "back_to_patient"];

/**
 * The intents of a draft, by name (ADR 009, ADR 030). An intent that carries a value is named with
 * its colon ("remove:matrix:<path>" is "remove:"). Any other intent, the plain "upload" button
 * among them, stores the files the form carried and keeps the step.
 */
const DRAFT_INTENTS: Record<string, IntentHandler> = {
  select_patient: selectPatient,
  "select_patient:": selectPatient,
  add_patient: addPatient,
  "remove:": removeOrderFile,
  "unskip:": unskipStep,
  "change:": changeStep,
  pay: payOrder,
  ...Object.fromEntries(NAV_ACTIONS.map((action): [string, IntentHandler] => [action, (args) => moveThroughSteps(args, action)])),
  next: (args) => (stepAt(args.step).kind === "patient" ? nextWithTypedPatient(args) : moveThroughSteps(args, "next")),
};

function parseIntent(intent: string): { name: string; argument: string | null } {
  const colon = intent.indexOf(":");
  return colon < 0 ? { name: intent, argument: null } : { name: intent.slice(0, colon + 1), argument: intent.slice(colon + 1) };
}

/** The wizard's action; with JavaScript, a move within the wizard is answered with the next page (ADR 035). */
export async function handleWizardAction({ request, context }: ActionFunctionArgs) {
  const answer = await dispatch(request, context);
  return answer instanceof Response ? answerInPlace(request, context, answer) : answer;
}

async function dispatch(request: Request, context: AppLoadContext) {
  const db = await getDb();
  const { viewer, market, language, clientAddress } = await getRequestContext(request, context);
  const { order } = await resolveOrder(request, db, viewer);

  let submission;
  let uploads: UploadResult[] = [];
  if (isMultipartRequest(request)) {
    const received = await receiveUploads(request, context, db, order, viewer);
    if (received instanceof Response) return received;
    uploads = received.uploads;
    submission = await parseSubmission(request, context, received.form, wizardFormSchema);
  } else {
    submission = await readSubmission(request, context, wizardFormSchema);
  }
  // The schema refuses nothing (forms.ts): a step's own checks depend on the order as it stands.
  const form = submission.status === "success" ? submission.value : wizardFormSchema.parse({});
  const typed = typedValues(submission.payload);

  const intent = form.intent;
  const uploadToast = toastFromUploads(uploads);

  if (!order) {
    if (intent !== "next") return redirect("/order");
    return startOrder(db, viewer, { market, language }, clientAddress);
  }

  const patients = await listPatients(db, order.id);
  const patient = patients.find((p) => p.id === order.current_patient_id) ?? patients[0] ?? null;
  const step = order.status === "draft" ? clampStep(order.wizard_step) : LAST_STEP;
  const { name, argument } = parseIntent(intent);
  const { partnerCode } = await getBrowserChoices(request, context);
  const args: IntentArgs = { db, viewer, partnerCode, order, patients, patient, step, form, typed, argument, uploadToast };

  if (intent === "edit") return returnToDraft(args);

  if (order.status !== "draft") {
    if (intent === "pay" && order.status === "pending") return startPayment(db, order, viewer, partnerCode);
    return redirectWithToast("/order", frozenToast);
  }

  // Each step's form names its step. A post made on another step than the order's — sent again after
  // its answer was lost (the browser's offline page reloaded, an older tab) — acts on nothing: the
  // current step is shown (ADR 046). Forms that name no step (the patient selector, pay) are not checked.
  const sent = postedStep(submission.payload);
  if (sent !== null && sent !== step) return redirect("/order");

  // The jaw and step declared beside each of the step's files (ADR 058) are kept whatever the form does next.
  const fileType = uploadTypeAt(step);
  if (fileType && patient && form.file_path.length > 0) await declareFiles(db, order, patient, fileType, fileDeclarations(form));

  try {
    return await (intentHandler(DRAFT_INTENTS, name) ?? keepStep)(args);
  } catch (error) {
    if (error instanceof OrderFrozenError) return redirectWithToast("/order", frozenToast);
    throw error;
  }
}
