import { z } from "zod";
import type { ConditionsValues } from "./clients.server";
import { emailField } from "~/modules/validation/fields";
import { BAD_CHARACTERS, hasForbiddenCharacters } from "~/modules/validation/text";
import { PRICE_COLUMNS, PRICE_FIELDS, type PriceField } from "./conditions";

/**
 * The server's check of the conditions form (it decides; the browser only helps). Numbers are at
 * least 0 with at most two decimals (cents of euro prices, and discounts such as 7.5 % already on
 * file); the discount is at most 100. Empty, zero or missing numbers are saved as null, an empty
 * comment as null. Messages are translation keys.
 */

const hasAtMostTwoDecimals = (value: number) => Math.abs(Math.round(value * 100) - value * 100) < 1e-6;

const amount = z
  .number({ error: "bo.conditions.errors.number" })
  .min(0, { error: "bo.conditions.errors.negative" })
  .max(100_000_000, { error: "bo.conditions.errors.tooLarge" })
  .refine(hasAtMostTwoDecimals, { error: "bo.conditions.errors.decimals" })
  .optional();

export const conditionsSchema = z.object({
  email: emailField({ required: "bo.conditions.errors.email", invalid: "bo.conditions.errors.email" }),
  currency: z.enum(["rub", "eur"], { error: "bo.conditions.errors.currency" }),
  alignerPrice: amount,
  alignerSingleLayerPrice: amount,
  alignerThreeLayerPrice: amount,
  matrixPrice: amount,
  retainerStandardPrice: amount,
  retainerPremiumPrice: amount,
  discountPercentage: z
    .number({ error: "bo.conditions.errors.number" })
    .min(0, { error: "bo.conditions.errors.negative" })
    .max(100, { error: "bo.conditions.errors.discountMax" })
    .refine(hasAtMostTwoDecimals, { error: "bo.conditions.errors.decimals" })
    .optional(),
  personalComment: z
    .string()
    .trim()
    .max(2000, { error: "bo.conditions.errors.commentLength" })
    .refine((value) => !hasForbiddenCharacters(value), { error: BAD_CHARACTERS })
    .optional(),
});

export type ConditionsForm = z.output<typeof conditionsSchema>;

/** Form values (major units) → `client_settings` values (minor units, null for empty or zero). */
export function toConditionsValues(form: ConditionsForm): ConditionsValues {
  const minor = (value: number | undefined) => (value === undefined || value === 0 ? null : Math.round(value * 100));
  const prices = Object.fromEntries(PRICE_FIELDS.map((field: PriceField) => [PRICE_COLUMNS[field], minor(form[field])])) as Pick<
    ConditionsValues,
    (typeof PRICE_COLUMNS)[PriceField]
  >;
  return {
    currency: form.currency,
    ...prices,
    discount_percentage: form.discountPercentage === undefined || form.discountPercentage === 0 ? null : form.discountPercentage,
    personal_comment: form.personalComment ? form.personalComment : null,
  };
}
