import type { Order, Patient } from "~db/schema";
import type { DB } from "~/modules/db/db.server";
import type { Viewer } from "~/modules/http/request/request-context.server";
import type { Toast } from "~/modules/http/answers/toast.server";
import type { WizardForm } from "../forms";
import type { fail } from "../replies.server";

/** What every intent of the wizard's action receives: the request's facts, the order as it stands and the form. */
export interface IntentArgs {
  db: DB;
  viewer: Viewer;
  /** The partner whose link this browser opened (the request context's browser choices), credited at hand-off. */
  partnerCode: string | null;
  order: Order;
  patients: Patient[];
  /** The current patient: the order's remembered one, else its first. */
  patient: Patient | null;
  step: number;
  /** The form, parsed by its schema (forms.ts). */
  form: WizardForm;
  /** The form's texts as sent, given back with a refusal so the doctor sees what was typed. */
  typed: Record<string, string>;
  /** The part of the intent after its name and colon ("remove:matrix:path", "select_patient:id"); null when it has none. */
  argument: string | null;
  /** What became of the files this form carried, said once the step is done. */
  uploadToast: Toast | null;
}

export type IntentReply = Response | ReturnType<typeof fail>;

export type IntentHandler = (args: IntentArgs) => Promise<IntentReply>;
