import * as z from "zod/mini";
import { BAD_CHARACTERS, hasForbiddenCharacters, TOO_LONG } from "./text";

/**
 * The one e-mail rule (ADR 054): something@something.something, no spaces, at most 254 characters
 * (RFC 5321), no control characters; compared and stored trimmed and lower-cased. Deliberately as
 * loose as the forms always were: zod's own `z.email()` refuses internationalised addresses
 * (`врач@клиника.рф`) that clinics use. Plain and shared: forms (server and browser), configuration
 * and the sign-in strategy all check an address here.
 */
export const EMAIL_MAX = 254;
const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The form of an address that is compared and stored: trimmed, lower-cased; null when empty. */
export function normalizeEmail(email: string | null | undefined): string | null {
  const value = email?.trim().toLowerCase();
  return value ? value : null;
}

export interface EmailMessages {
  /** Nothing typed. */
  required: string;
  /** Not an address. */
  invalid: string;
  /** Longer than an address can be; the invalid message unless a form says otherwise. */
  tooLong?: string;
}

/**
 * The e-mail field of a form: required, normalised, each refusal with its own translation key and
 * only the first one reported. Its output is the normalised address.
 */
export function emailField(messages: EmailMessages) {
  return z.string({ error: messages.required }).check(
    z.trim(),
    z.minLength(1, { error: messages.required, abort: true }),
    z.refine((value) => !hasForbiddenCharacters(value), { error: BAD_CHARACTERS, abort: true }),
    z.maxLength(EMAIL_MAX, { error: messages.tooLong ?? messages.invalid, abort: true }),
    z.regex(EMAIL_SHAPE, { error: messages.invalid, abort: true }),
    z.toLowerCase(),
  );
}

const anyEmail = emailField({ required: "invalid", invalid: "invalid", tooLong: TOO_LONG });

/** Whether a text is an e-mail address by the one rule (surrounding spaces allowed). */
export function isEmail(value: string): boolean {
  return anyEmail.safeParse(value).success;
}
