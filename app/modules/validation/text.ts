/**
 * Characters that never belong in a name, address, phone or comment: C0/C1 control characters
 * other than tab and line breaks (PostgreSQL cannot even store NUL) and the bidirectional
 * overrides and isolates that make a text display differently from what it is ("Trojan Source").
 * Pure and shared; messages are translation keys.
 */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/;
const FORBIDDEN_ALL = new RegExp(FORBIDDEN.source, "g");

export const BAD_CHARACTERS = "errors.fields.badCharacters";
export const TOO_LONG = "errors.fields.tooLong";

export function hasForbiddenCharacters(value: string): boolean {
  return FORBIDDEN.test(value);
}

export function withoutForbiddenCharacters(value: string): string {
  return value.replace(FORBIDDEN_ALL, "");
}

/** The error key for a typed text, or null when it may be stored. */
export function textProblem(value: string, max: number): string | null {
  if (hasForbiddenCharacters(value)) return BAD_CHARACTERS;
  if (value.length > max) return TOO_LONG;
  return null;
}
