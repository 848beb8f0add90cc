import * as z from "zod/mini";

/**
 * The Russian taxpayer number (ИНН) of a payer or the lab (ADR 072): 10 digits for an organisation,
 * 12 for an individual entrepreneur, each with its check digits (the Federal Tax Service's weights:
 * one check digit of ten, two of twelve). Pure, so the invoice form's browser check and the
 * configuration's strict mode read the same rule.
 */

const WEIGHTS_10 = [2, 4, 10, 3, 5, 9, 4, 6, 8];
const WEIGHTS_11 = [7, 2, 4, 10, 3, 5, 9, 4, 6, 8];
const WEIGHTS_12 = [3, 7, 2, 4, 10, 3, 5, 9, 4, 6, 8];

const checkDigit = (digits: readonly number[], weights: readonly number[]) => (weights.reduce((sum, weight, index) => sum + weight * digits[index]!, 0) % 11) % 10;

/** What is wrong with a typed ИНН: its shape (not 10 or 12 digits) or its check digits; null when it is one. */
export function innProblem(value: string): "shape" | "checksum" | null {
  if (!/^(\d{10}|\d{12})$/.test(value)) return "shape";
  const digits = [...value].map(Number);
  if (digits.length === 10) return checkDigit(digits, WEIGHTS_10) === digits[9] ? null : "checksum";
  return checkDigit(digits, WEIGHTS_11) === digits[10] && checkDigit(digits, WEIGHTS_12) === digits[11] ? null : "checksum";
}

export const isInn = (value: string) => innProblem(value) === null;

/** An ИНН as people type it: spaces and dashes between the digits are dropped. */
export const innText = (value: string) => value.replace(/[\s\u00a0\u202f-]/g, "");

export interface InnMessages {
  required: string;
  /** Not 10 or 12 digits. */
  shape: string;
  /** The digits do not add up. */
  checksum: string;
}

/** The ИНН field of a form: required, digits only after spaces and dashes go, 10 or 12 of them with their check digits. */
export function innField(messages: InnMessages) {
  return z.string({ error: messages.required }).check(
    z.overwrite(innText),
    z.minLength(1, { error: messages.required, abort: true }),
    z.superRefine((value, context) => {
      const problem = innProblem(value);
      if (problem) context.addIssue({ code: "custom", message: messages[problem], input: value, continue: false });
    }),
  );
}
