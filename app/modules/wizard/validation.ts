/**
 * The wizard's field checks (customer-side §5). Pure and shared: the server decides; the browser
 * may use the same rules only to disable a button early. Errors are translation keys.
 */
import { isEmail } from "~/modules/validation/email";
import { textProblem } from "~/modules/validation/text";

export type FieldErrors = Record<string, string>;

/** Longest texts a field keeps (an e-mail address is at most 254 characters, RFC 5321). */
export const FIELD_MAX = {
  email: 254,
  phone: 50,
  full_name: 200,
  address: 500,
  delivery_comment: 1000,
  patient_name: 200,
  additional_comments: 2000,
} as const;
export type LimitedField = keyof typeof FIELD_MAX;

/** The one e-mail rule (validation/email.ts), under the name the wizard's modules import. */
export { isEmail };

/** The error of a typed text field (control characters, too long), or null. */
export const fieldProblem = (name: LimitedField, value: string) => textProblem(value, FIELD_MAX[name]);


const text = (form: FormData, name: string) => String(form.get(name) ?? "").trim();

export interface ContactValues {
  email: string;
  phone: string;
}

export function checkContacts(values: ContactValues): FieldErrors {
  const errors: FieldErrors = {};
  if (!values.email) errors.email = "wizard.errors.emailRequired";
  if (!values.phone) errors.phone = "wizard.errors.phoneRequired";
  if (values.email && !isEmail(values.email)) errors.email = "wizard.errors.emailInvalid";
  const phoneProblem = values.phone ? fieldProblem("phone", values.phone) : null;
  if (phoneProblem) errors.phone = phoneProblem;
  return errors;
}

export interface DeliveryValues {
  full_name: string;
  address: string;
  delivery_comment: string;
  consent: boolean;
}

export function checkDelivery(values: DeliveryValues, consentRequired: boolean): FieldErrors {
  const errors: FieldErrors = {};
  if (!values.address) errors.address = "wizard.errors.addressRequired";
  if (!values.full_name) errors.full_name = "wizard.errors.fullNameRequired";
  if (consentRequired && !values.consent) errors.consent = "wizard.errors.consentRequired";
  for (const name of ["full_name", "address", "delivery_comment"] as const) {
    const problem = values[name] ? fieldProblem(name, values[name]) : null;
    if (problem) errors[name] = problem;
  }
  return errors;
}

export function readContacts(form: FormData): ContactValues {
  return { email: text(form, "email").toLowerCase(), phone: text(form, "phone") };
}

export function readDelivery(form: FormData): DeliveryValues {
  return {
    full_name: text(form, "full_name"),
    address: text(form, "address"),
    delivery_comment: text(form, "delivery_comment"),
    consent: form.get("consent") === "on",
  };
}

export function readChoice<T extends string>(form: FormData, name: string, allowed: readonly T[]): T | null {
  const value = form.get(name);
  return typeof value === "string" && (allowed as readonly string[]).includes(value) ? (value as T) : null;
}

export const readText = text;

/** The tus uploads the page says are still going up for the step's files (ADR 054). */
export const readInFlight = (form: FormData): string[] => form.getAll("in_flight").filter((value): value is string => typeof value === "string");
