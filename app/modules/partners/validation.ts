/**
 * The partner forms' checks (staff-partner-packer §5). Pure and shared; the server decides.
 * Errors are translation keys whose Russian texts are the spec's, verbatim.
 */
import { BAD_CHARACTERS, hasForbiddenCharacters, TOO_LONG } from "~/modules/validation/text";

export type FieldErrors = Record<string, string>;

export const NAME_MAX = 200;
export const NOTE_MAX = 500;
/** Contacts: the longest e-mail address SMTP carries, and a phone number with room for an extension. */
export const CONTACT_EMAIL_MAX = 254;
export const CONTACT_PHONE_MAX = 50;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const text = (form: FormData, name: string) => String(form.get(name) ?? "").trim();

/**
 * A money amount typed by staff in major units (roubles): digits with optional spaces as thousands
 * separators and up to two decimals after "," or "."; returned in minor units (kopecks), or null.
 */
export function parseMoneyToMinor(input: string): number | null {
  const compact = input.replace(/[\s\u00a0\u202f]/g, "").replace(/₽$/, "");
  const match = /^(\d{1,12})(?:[.,](\d{1,2}))?$/.exec(compact);
  if (!match) return null;
  return Number(match[1]) * 100 + Number((match[2] ?? "").padEnd(2, "0"));
}

/** The current year and quarter of the company's calendar (Moscow time). */
export function currentPeriod(now = new Date()): { year: number; quarter: number } {
  const parts = new Intl.DateTimeFormat("en-GB", { timeZone: "Europe/Moscow", year: "numeric", month: "numeric" }).formatToParts(now);
  const year = Number(parts.find((part) => part.type === "year")!.value);
  const month = Number(parts.find((part) => part.type === "month")!.value);
  return { year, quarter: Math.floor((month - 1) / 3) + 1 };
}

export interface PayoutInput {
  amount: number;
  year: number;
  quarter: number;
  note: string | null;
}

/** Payout: amount > 0, quarter 1–4, year 2000–2100 (the table's own bounds), comment optional and trimmed. */
export function checkPayout(form: FormData): { value: PayoutInput; errors: null } | { value: null; errors: FieldErrors } {
  const errors: FieldErrors = {};
  const amount = parseMoneyToMinor(text(form, "amount"));
  if (amount === null || amount <= 0) errors.amount = "partners.errors.amountPositive";
  const quarterText = text(form, "quarter");
  const quarter = /^\d$/.test(quarterText) ? Number(quarterText) : NaN;
  if (!(quarter >= 1 && quarter <= 4)) errors.quarter = "partners.errors.quarterRange";
  const yearText = text(form, "year");
  const year = /^\d{4}$/.test(yearText) ? Number(yearText) : NaN;
  if (!(year >= 2000 && year <= 2100)) errors.year = "partners.errors.yearRange";
  // Nothing typed is cut: too long is an error on the field, like a forbidden character.
  const note = text(form, "note");
  if (hasForbiddenCharacters(note)) errors.note = BAD_CHARACTERS;
  else if (note.length > NOTE_MAX) errors.note = TOO_LONG;
  if (Object.keys(errors).length) return { value: null, errors };
  return { value: { amount: amount!, year, quarter, note: note || null }, errors: null };
}

export type PercentageInput = { kind: "keep" } | { kind: "set"; value: string } | { kind: "invalid"; error: string };

/**
 * Reward percentage: empty keeps the current value; otherwise above 0 and at most 100, with at
 * most two decimals (the column is numeric(5,2)). Returned as a decimal string for SQL.
 */
export function checkPercentage(input: string): PercentageInput {
  const value = input.trim().replace(/\s|%/g, "").replace(",", ".");
  if (value === "") return { kind: "keep" };
  if (!/^\d{1,3}(\.\d{1,2})?$/.test(value)) return { kind: "invalid", error: "partners.errors.percentageRange" };
  const number = Number(value);
  if (!(number > 0 && number <= 100)) return { kind: "invalid", error: "partners.errors.percentageRange" };
  return { kind: "set", value: number.toFixed(2) };
}

export function checkName(input: string): { value: string; error: null } | { value: null; error: string } {
  if (hasForbiddenCharacters(input)) return { value: null, error: BAD_CHARACTERS };
  const value = input.trim().replace(/\s+/g, " ");
  if (value.length > NAME_MAX) return { value: null, error: TOO_LONG };
  return value ? { value, error: null } : { value: null, error: "partners.errors.nameEmpty" };
}

export interface ContactsInput {
  contactEmail: string;
  contactPhone: string;
  acceptOffer: boolean;
}

/**
 * Contacts: phone and e-mail both required ('Заполните все поля' / 'Телефон и e-mail обязательны'),
 * and the offer accepted unless it already was ('Требуется согласие' / 'Подтвердите ознакомление…').
 * `summary` is the form's heading for the first failing rule.
 */
export function checkContacts(
  form: FormData,
  offerAlreadyAccepted: boolean,
): { value: ContactsInput; errors: null; summary: null } | { value: null; errors: FieldErrors; summary: string } {
  const contactEmail = text(form, "contact_email").toLowerCase();
  const contactPhone = text(form, "contact_phone");
  const acceptOffer = form.get("offer") === "on";
  const errors: FieldErrors = {};
  let summary: string | null = null;
  if (!contactEmail) errors.contact_email = "partners.errors.contactsRequired";
  if (!contactPhone) errors.contact_phone = "partners.errors.contactsRequired";
  if (Object.keys(errors).length) summary = "partners.errors.contactsTitle";
  if (contactEmail && !EMAIL.test(contactEmail)) {
    errors.contact_email = "partners.errors.emailInvalid";
    summary ??= "partners.errors.contactsTitle";
  }
  for (const [name, value, max] of [["contact_email", contactEmail, CONTACT_EMAIL_MAX], ["contact_phone", contactPhone, CONTACT_PHONE_MAX]] as const) {
    if (hasForbiddenCharacters(value)) errors[name] = BAD_CHARACTERS;
    else if (value.length > max) errors[name] = TOO_LONG;
    else continue;
    summary ??= "partners.errors.contactsTitle";
  }
  if (!offerAlreadyAccepted && !acceptOffer) {
    errors.offer = "partners.errors.consentRequired";
    summary ??= "partners.errors.consentTitle";
  }
  if (summary) return { value: null, errors, summary };
  return { value: { contactEmail, contactPhone, acceptOffer }, errors: null, summary: null };
}

export const REFERRAL_STATUS_FILTERS = ["processing", "paid", "completed"] as const;
export type ReferralStatusFilter = (typeof REFERRAL_STATUS_FILTERS)[number];
export const ACTIVITY_FILTERS = ["active", "inactive"] as const;
export type ActivityFilter = (typeof ACTIVITY_FILTERS)[number];

export function readFilter<T extends string>(value: string | null, allowed: readonly T[]): T | null {
  return value !== null && (allowed as readonly string[]).includes(value) ? (value as T) : null;
}
