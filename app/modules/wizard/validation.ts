/**
 * The wizard's field checks (customer-side §5), on the schemas of `forms.ts` (ADR 053). The server
 * decides; the forward button follows the pure part (`forward.ts`). Errors are translation keys.
 */
import type * as z from "zod/mini";
import { isEmail } from "~/modules/validation/email";
import { textProblem } from "~/modules/validation/text";
import { commentsSchema, contactsSchema, deliverySchema, FIELD_MAX, type LimitedField, patientNameSchema, type WizardForm, wizardFormSchema } from "./forms";
import { consentProblem } from "./forward";
import { stepAt, type TypedFields } from "./steps";

export type FieldErrors = Record<string, string>;

export { FIELD_MAX, type LimitedField };

/** The one e-mail rule (validation/email.ts), under the name the wizard's modules import. */
export { isEmail };

/** The error of a typed text field (control characters, too long), or null. */
export const fieldProblem = (name: LimitedField, value: string) => textProblem(value, FIELD_MAX[name]);

/** A schema's refusal as the wizard says it: the first message of each field. */
export function fieldErrors(result: { success: boolean; error?: { issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }> } }): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of result.error?.issues ?? []) errors[String(issue.path[0])] ??= issue.message;
  return errors;
}

/** A text as a schema reads it: empty is no value, as conform reads a form. */
const given = (value: string | null | undefined) => (value ? value : undefined);

const check = <S extends z.ZodMiniType>(schema: S, values: unknown) => fieldErrors(schema.safeParse(values));

export interface ContactValues {
  email: string;
  phone: string;
}

export function checkContacts(values: ContactValues): FieldErrors {
  return check(contactsSchema, { email: given(values.email), phone: given(values.phone) });
}

export interface DeliveryValues {
  full_name: string;
  address: string;
  delivery_comment: string;
  consent: boolean;
}

export function checkDelivery(values: DeliveryValues, consentRequired: boolean): FieldErrors {
  const { address, full_name, delivery_comment } = check(deliverySchema, { address: given(values.address), full_name: given(values.full_name), delivery_comment: given(values.delivery_comment) });
  const consent = consentProblem(consentRequired, values.consent);
  // In the order the step shows its fields.
  return Object.fromEntries(Object.entries({ address, full_name, consent, delivery_comment }).filter((entry): entry is [string, string] => typeof entry[1] === "string"));
}

/** A form as the server's parsing reads it: each name's value, or its values when sent more than once. */
function payloadOf(formData: FormData): Record<string, unknown> {
  const payload: Record<string, unknown> = {};
  for (const [name, value] of formData) {
    const before = payload[name];
    payload[name] = before === undefined ? value : Array.isArray(before) ? [...before, value] : [before, value];
  }
  return payload;
}

/** Each step table's typed-field check (steps.ts `checks`), on the parsed form. */
const TYPED_CHECKS: Record<TypedFields, (form: WizardForm, consentRequired: boolean) => FieldErrors> = {
  contacts: (form) => checkContacts({ email: form.email ?? "", phone: form.phone ?? "" }),
  delivery: (form, consentRequired) => checkDelivery({ full_name: form.full_name ?? "", address: form.address ?? "", delivery_comment: form.delivery_comment ?? "", consent: form.consent }, consentRequired),
  comments: (form) => check(commentsSchema, { additional_comments: given(form.additional_comments) }),
};

/**
 * The checks of a step's typed fields, on the parsed form (customer side §5), as the step table
 * names them: the contacts, the delivery and consent, the cut's comment. The server's step check
 * runs them before "next" (`checkStep`), and the page before sending it (`typedProblems`).
 */
export function stepFieldErrors(step: number, form: WizardForm, consentRequired: boolean): FieldErrors {
  const checks = stepAt(step).checks;
  return checks ? TYPED_CHECKS[checks](form, consentRequired) : {};
}

/** "Add patient"'s check of the typed name (and "next" on the patient step with a name typed). */
export const patientNameErrors = (form: WizardForm): FieldErrors => check(patientNameSchema, { patient_name: given(form.patient_name) });

/**
 * What the page can say about the typed fields before "next" or "add patient" is sent (ADR 053):
 * the server's own checks of those fields, so a doctor on a slow link (or offline) hears of an
 * empty or malformed field at once. What depends on the order as stored (its patients, files,
 * choices) the forward button follows (forward.ts) and the server decides.
 */
export function typedProblems(step: number, intent: string, formData: FormData, consentRequired: boolean): FieldErrors {
  const form = wizardFormSchema.parse(payloadOf(formData));
  if (stepAt(step).kind === "patient" && (intent === "add_patient" || (intent === "next" && form.patient_name))) return patientNameErrors(form);
  return intent === "next" ? stepFieldErrors(step, form, consentRequired) : {};
}
