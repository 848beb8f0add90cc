import { hasForbiddenCharacters } from "./text";

/**
 * The one e-mail rule (ADR 053): something@something.something, no spaces, at most 254 characters
 * (RFC 5321), no control characters; compared and stored trimmed and lower-cased. Deliberately as
 * loose as the forms always were: zod's own `z.email()` refuses internationalised addresses
 * (`врач@клиника.рф`) that clinics use. Plain and shared, without zod (the wizard's pages import it):
 * the forms' zod piece (`emailField` in fields.ts) applies the same checks, and configuration and
 * the sign-in strategy check an address here.
 */
export const EMAIL_MAX = 254;
export const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The form of an address that is compared and stored: trimmed, lower-cased; null when empty. */
export function normalizeEmail(email: string | null | undefined): string | null {
  const value = email?.trim().toLowerCase();
  return value ? value : null;
}

/** Whether a text is an e-mail address by the one rule (surrounding spaces allowed). */
export function isEmail(value: string): boolean {
  const address = value.trim();
  return address.length <= EMAIL_MAX && !hasForbiddenCharacters(address) && EMAIL_SHAPE.test(address);
}
