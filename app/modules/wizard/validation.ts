/**
 * The wizard's field checks (customer-side §5), on the schemas of `forms.ts` (ADR 053). The server
 * decides; the forward button follows the pure part (`forward.ts`). Errors are translation keys.
 */
import type * as z from "zod/mini";
import { isEmail } from "~/modules/validation/email";
import { textProblem } from "~/modules/validation/text";
import { contactsSchema, deliverySchema, FIELD_MAX, type LimitedField } from "./forms";
import { consentProblem } from "./forward";

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
