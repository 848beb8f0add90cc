import type { ConditionsValues } from "./clients.server";
import { PRICE_COLUMNS, PRICE_FIELDS, type PriceField } from "./conditions";
import type { ConditionsForm } from "./conditions-forms";

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
    internal_comment: form.internalComment ? form.internalComment : null,
  };
}
