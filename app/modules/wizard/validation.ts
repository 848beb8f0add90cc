/**
 * The wizard's field checks (customer-side §5). Pure and shared: the server decides; the browser
 * may use the same rules only to disable a button early. Errors are translation keys.
 */
export type FieldErrors = Record<string, string>;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const isEmail = (value: string) => EMAIL.test(value.trim());

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
