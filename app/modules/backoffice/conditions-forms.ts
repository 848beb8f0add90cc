import * as z from "zod/mini";
import { decimalField, emailField, TEXT_MAX, textField } from "~/modules/validation/fields";
import { CURRENCIES } from "./conditions";

/**
 * The personal conditions form (staff side §5 "Client conditions form"), one zod schema from the
 * shared pieces, parsed with conform on the server and checked with the same schema in the browser
 * (ADR 053). Every field is text: prices and the discount are numbers at least 0 with at most two
 * decimals (cents of euro prices, discounts such as 7.5 % already on file); the discount is at most
 * 100. Nothing typed is no value (saved as null, like 0, by `toConditionsValues`). Messages are
 * translation keys.
 */
const NUMBER_MESSAGES = {
  number: "bo.conditions.errors.number",
  negative: "bo.conditions.errors.negative",
  tooLarge: "bo.conditions.errors.tooLarge",
  decimals: "bo.conditions.errors.decimals",
};
export const PRICE_MAX = 100_000_000;
export const DISCOUNT_MAX = 100;

const price = decimalField(PRICE_MAX, NUMBER_MESSAGES);

export const conditionsSchema = z.object({
  email: emailField({ required: "bo.conditions.errors.email", invalid: "bo.conditions.errors.email" }),
  currency: z.enum(CURRENCIES as ["rub", "eur"], { error: "bo.conditions.errors.currency" }),
  alignerPrice: price,
  alignerSingleLayerPrice: price,
  alignerThreeLayerPrice: price,
  matrixPrice: price,
  retainerStandardPrice: price,
  retainerPremiumPrice: price,
  discountPercentage: decimalField(DISCOUNT_MAX, { ...NUMBER_MESSAGES, tooLarge: "bo.conditions.errors.discountMax" }),
  personalComment: textField(TEXT_MAX.comment, undefined, "bo.conditions.errors.commentLength"),
  internalComment: textField(TEXT_MAX.comment, undefined, "bo.conditions.errors.commentLength"),
});

export type ConditionsForm = z.output<typeof conditionsSchema>;
