import type { Currency } from "~db/schema";
import { formatPriceSetAmount, PRICE_SETS } from "~/modules/pricing/price-sets";

/**
 * The personal conditions form (staff side §5 "Client conditions form"). Pure: the field names,
 * and the conversions between `client_settings` (minor units) and the form (major units).
 * The zod schema lives in conditions-forms.ts, which the page loads only once it is usable (ADR 053).
 */

export const PRICE_FIELDS = [
  "alignerPrice",
  "alignerSingleLayerPrice",
  "alignerThreeLayerPrice",
  "matrixPrice",
  "retainerStandardPrice",
  "retainerPremiumPrice",
] as const;
export type PriceField = (typeof PRICE_FIELDS)[number];

export const PRICE_COLUMNS = {
  alignerPrice: "aligner_price",
  alignerSingleLayerPrice: "aligner_single_layer_price",
  alignerThreeLayerPrice: "aligner_three_layer_price",
  matrixPrice: "matrix_price",
  retainerStandardPrice: "retainer_standard_price",
  retainerPremiumPrice: "retainer_premium_price",
} as const satisfies Record<PriceField, string>;
type PriceColumn = (typeof PRICE_COLUMNS)[PriceField];

export const CURRENCIES: readonly Currency[] = ["rub", "eur"];

export interface StoredConditions extends Record<PriceColumn, number | null> {
  currency: Currency;
  discount_percentage: string | number | null;
  personal_comment: string | null;
  internal_comment?: string | null;
}

export type ConditionsFormValues = Record<PriceField | "discountPercentage" | "personalComment" | "internalComment", string> & { currency: Currency };

/** 85000 kopecks → "850"; 1290 cents → "12.90" (money with cents shows both, ADR 043); null → "". */
export function toMajorUnits(minor: number | null): string {
  if (minor === null) return "";
  return minor % 100 === 0 ? String(minor / 100) : (minor / 100).toFixed(2);
}

/**
 * What the form shows: stored prices in major units; the layer prices fall back to the general
 * aligner price when they have none (the spec's rule when the form is populated).
 */
export function conditionsFormDefaults(stored: StoredConditions | null | undefined, fallbackCurrency: Currency): ConditionsFormValues {
  const general = stored?.aligner_price ?? null;
  const discount = stored?.discount_percentage ?? null;
  return {
    currency: stored?.currency ?? fallbackCurrency,
    alignerPrice: toMajorUnits(general),
    alignerSingleLayerPrice: toMajorUnits(stored?.aligner_single_layer_price ?? general),
    alignerThreeLayerPrice: toMajorUnits(stored?.aligner_three_layer_price ?? general),
    matrixPrice: toMajorUnits(stored?.matrix_price ?? null),
    retainerStandardPrice: toMajorUnits(stored?.retainer_standard_price ?? null),
    retainerPremiumPrice: toMajorUnits(stored?.retainer_premium_price ?? null),
    discountPercentage: discount === null ? "" : String(Number(discount)),
    personalComment: stored?.personal_comment ?? "",
    internalComment: stored?.internal_comment ?? "",
  };
}

/**
 * The hint beside a price field: the base price it replaces, in the conditions' currency — the
 * prices `calculateOrderPrice` uses when the field is empty (ADR 069). The premium retainer's
 * price is kept on file but no order line uses it, and the hint says so.
 */
export function basePriceHint(field: PriceField, currency: Currency, language: string): { key: string; values?: Record<string, string> } {
  const base = PRICE_SETS[currency];
  const price = (minor: number) => formatPriceSetAmount(minor, currency, language);
  switch (field) {
    case "alignerPrice":
      return { key: "bo.conditions.hints.alignerPrice", values: { single: price(base.singleLayerMaterial), three: price(base.threeLayerMaterial) } };
    case "alignerSingleLayerPrice":
      return { key: "bo.conditions.hints.layerPrice", values: { price: price(base.singleLayerMaterial) } };
    case "alignerThreeLayerPrice":
      return { key: "bo.conditions.hints.layerPrice", values: { price: price(base.threeLayerMaterial) } };
    case "matrixPrice":
      // One matrix price for soft and hard alike, as the order's lines price them.
      return { key: "bo.conditions.hints.matrixPrice", values: { price: price(base.hardMatrix) } };
    case "retainerStandardPrice":
      return { key: "bo.conditions.hints.base", values: { price: price(base.retainer) } };
    case "retainerPremiumPrice":
      return { key: "bo.conditions.hints.retainerPremium" };
  }
}

/** A price more than this many times the base price, or less than its share, is asked about before it is saved. */
export const UNUSUAL_PRICE_FACTOR = 10;

/** The base price a personal price field stands for, in minor units. */
function basePriceOf(field: PriceField, currency: Currency): number {
  const base = PRICE_SETS[currency];
  switch (field) {
    case "alignerPrice":
    case "alignerSingleLayerPrice":
      return base.singleLayerMaterial;
    case "alignerThreeLayerPrice":
      return base.threeLayerMaterial;
    case "matrixPrice":
      return base.hardMatrix;
    case "retainerStandardPrice":
    case "retainerPremiumPrice":
      return base.retainer;
  }
}

/**
 * The price fields far outside the usual range — above 10× or below 1/10 of the base price (a
 * typo's extra zero, kopecks for roubles) — with a fingerprint of their values: the form asks, and
 * saves on a second submit that carries the same fingerprint (works without JavaScript).
 */
export function unusualPrices(values: Partial<Record<PriceColumn, number | null>>, currency: Currency): { fields: PriceField[]; fingerprint: string } {
  const fields = PRICE_FIELDS.filter((field) => {
    const minor = values[PRICE_COLUMNS[field]];
    if (minor === null || minor === undefined) return false;
    const base = basePriceOf(field, currency);
    return minor > base * UNUSUAL_PRICE_FACTOR || minor * UNUSUAL_PRICE_FACTOR < base;
  });
  return { fields, fingerprint: fields.map((field) => `${field}=${values[PRICE_COLUMNS[field]]}`).join(";") };
}
