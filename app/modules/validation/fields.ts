import * as z from "zod/mini";
import { EMAIL_MAX, EMAIL_SHAPE } from "./email";
import { BAD_CHARACTERS, hasForbiddenCharacters, TOO_LONG } from "./text";

/**
 * Shared zod pieces of the forms (ADR 053), written once and imported by the schemas of every
 * area, on the server and, where JavaScript runs, in the browser (zod's small core build,
 * `zod/mini`). Messages are translation keys. Fields arrive as text: conform turns an empty field
 * into `undefined`, so "required" is the message for a missing value too.
 */

/** Longest texts a field keeps. */
export const TEXT_MAX = {
  name: 200,
  phone: 50,
  note: 500,
  comment: 2000,
} as const;

const noForbiddenCharacters = z.refine<string>((value) => !hasForbiddenCharacters(value), { error: BAD_CHARACTERS, abort: true });

/**
 * A typed text: control characters refused as typed, then trimmed, at most `max` characters (too
 * long is refused, never cut, with `tooLong` when a form names its limit). Required unless
 * `required` is omitted; then an empty field is "".
 */
export function textField(max: number, required?: string, tooLong: string = TOO_LONG) {
  const checked = z.string({ error: required ?? BAD_CHARACTERS }).check(
    noForbiddenCharacters,
    z.trim(),
    ...(required ? [z.minLength(1, { error: required, abort: true })] : []),
    z.maxLength(max, { error: tooLong, abort: true }),
  );
  return required ? checked : z._default(checked, "");
}

/** A person's or an organisation's name: a text whose runs of spaces count as one. */
export function nameField(required: string, max: number = TEXT_MAX.name) {
  return z.string({ error: required }).check(
    noForbiddenCharacters,
    z.overwrite((value) => value.trim().replace(/\s+/g, " ")),
    z.minLength(1, { error: required, abort: true }),
    z.maxLength(max, { error: TOO_LONG, abort: true }),
  );
}

/** A phone number as typed (no format is imposed: clinics write extensions and notes). */
export function phoneField(required: string) {
  return textField(TEXT_MAX.phone, required);
}

/**
 * A money amount typed in major units (roubles, euros): digits with optional spaces as thousands
 * separators and up to two decimals after "," or "."; returned in minor units (kopecks), or null.
 */
export function parseMoneyToMinor(input: string): number | null {
  const compact = input.replace(/[\s\u00a0\u202f]/g, "").replace(/[₽€]$/, "");
  const match = /^(\d{1,12})(?:[.,](\d{1,2}))?$/.exec(compact);
  if (!match) return null;
  return Number(match[1]) * 100 + Number((match[2] ?? "").padEnd(2, "0"));
}

/** A money amount above zero, in minor units. */
export function positiveAmountField(message: string) {
  return z.pipe(
    z.string({ error: message }).check(z.refine((value) => (parseMoneyToMinor(value) ?? 0) > 0, { error: message, abort: true })),
    z.transform((value) => parseMoneyToMinor(value)!),
  );
}

/** "7,5 %" → "7.5"; the typed text when it is no percentage. */
const percentText = (input: string) => input.trim().replace(/\s|%/g, "").replace(",", ".");
const PERCENT_SHAPE = /^\d{1,3}(\.\d{1,2})?$/;

const isPercentage = (value: string) => PERCENT_SHAPE.test(percentText(value)) && Number(percentText(value)) > 0 && Number(percentText(value)) <= 100;

/**
 * A percentage above 0 and at most 100 with at most two decimals (numeric(5,2) columns), returned
 * as a decimal string for SQL ("7.50"). Where a blank field keeps the current value, nothing or
 * only spaces give `undefined`.
 */
export function percentageField(message: string, options: { blankKeeps?: boolean } = {}) {
  const blank = (value: string) => options.blankKeeps === true && value.trim() === "";
  const typed = z.pipe(
    z.string({ error: message }).check(z.refine((value) => blank(value) || isPercentage(value), { error: message, abort: true })),
    z.transform((value) => (blank(value) ? undefined : Number(percentText(value)).toFixed(2))),
  );
  return options.blankKeeps ? z.optional(typed) : typed;
}

export interface DecimalMessages {
  /** Not a number ("abc", "NaN"). */
  number: string;
  /** Below zero. */
  negative: string;
  /** Above the field's maximum. */
  tooLarge: string;
  /** More than two digits after the decimal point. */
  decimals: string;
}

/** "1 290,50 ₽" → "1290.50", "7,5 %" → "7.5": a typed number as `Number` reads it. */
const decimalText = (input: string) =>
  input
    .replace(/[\s\u00a0\u202f]/g, "")
    .replace(/[₽€%]$/, "")
    .replace(",", ".");
const DECIMAL_SHAPE = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;
const hasAtMostTwoDecimals = (value: number) => Math.abs(Math.round(value * 100) - value * 100) < 1e-6;

/** Why a typed text is no decimal of [0, max] with at most two decimals; null when it is one. */
function decimalProblem(input: string, max: number, messages: DecimalMessages): string | null {
  const text = decimalText(input);
  if (!DECIMAL_SHAPE.test(text)) return messages.number;
  const value = Number(text);
  if (value < 0) return messages.negative;
  if (value > max) return messages.tooLarge;
  return hasAtMostTwoDecimals(value) ? null : messages.decimals;
}

/**
 * An optional decimal typed as text, from 0 to `max` with at most two decimals (prices with cents,
 * discounts such as 7.5 %), each refusal its own message: spaces as thousands separators, a decimal
 * comma and a trailing ₽, € or % are allowed. Nothing typed is `undefined`.
 */
export function decimalField(max: number, messages: DecimalMessages) {
  const typed = z.pipe(
    z.string({ error: messages.number }).check(
      z.superRefine((value, context) => {
        const problem = decimalProblem(value, max, messages);
        if (problem) context.addIssue({ code: "custom", message: problem, input: value, continue: false });
      }),
    ),
    z.transform((value) => Number(decimalText(value))),
  );
  return z.optional(typed);
}

/** A whole number typed as text within [min, max] (a year, a quarter). */
export function wholeNumberField(min: number, max: number, message: string) {
  return z.pipe(
    z.string({ error: message }).check(z.trim(), z.refine((value) => /^\d{1,9}$/.test(value) && Number(value) >= min && Number(value) <= max, { error: message, abort: true })),
    z.transform(Number),
  );
}

/**
 * A text a form may send, never refused: nothing, or anything that is no text (a file), is
 * `undefined`. For the small forms whose every value has a fallback (a return address, a choice
 * that defaults), so their schema keeps their behaviour exactly.
 */
export const optionalText = z.catch(z.optional(z.string()), undefined);

/** A checkbox: "on" when ticked, absent otherwise. */
export const checkbox = z.pipe(z.optional(z.string()), z.transform((value) => value === "on"));

/** A record id as forms send it (a UUID). */
export function idField(message: string) {
  return z.string({ error: message }).check(z.regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, { error: message, abort: true }));
}

export interface EmailMessages {
  /** Nothing typed. */
  required: string;
  /** Not an address. */
  invalid: string;
  /** Longer than an address can be; the invalid message unless a form says otherwise. */
  tooLong?: string;
  /** Control characters; the shared "forbidden characters" message unless a form says otherwise. */
  badCharacters?: string;
}

/**
 * The e-mail field of a form: required, normalised, each refusal with its own translation key and
 * only the first one reported. Its output is the normalised address.
 */
export function emailField(messages: EmailMessages) {
  return z.string({ error: messages.required }).check(
    z.trim(),
    z.minLength(1, { error: messages.required, abort: true }),
    z.refine((value) => !hasForbiddenCharacters(value), { error: messages.badCharacters ?? BAD_CHARACTERS, abort: true }),
    z.maxLength(EMAIL_MAX, { error: messages.tooLong ?? messages.invalid, abort: true }),
    z.regex(EMAIL_SHAPE, { error: messages.invalid, abort: true }),
    z.toLowerCase(),
  );
}
