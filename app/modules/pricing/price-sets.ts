import type { CurrencyCode } from "~/modules/money/format";
import { numberFormat } from "~/modules/i18n/intl";

/**
 * The two base price sets (customer-side §9), in integer minor units (DESIGN §4.11).
 * The market picks the set (DESIGN §3): domestic → rub, international → eur.
 * Pure data: safe to import in the browser.
 */
export interface PriceSet {
  currency: CurrencyCode;
  symbol: "₽" | "€";
  /** Per single-layer aligner (PETG 0.75 mm). */
  singleLayerMaterial: number;
  /** Per three-layer aligner (TPU 0.75 mm). */
  threeLayerMaterial: number;
  softMatrix: number;
  hardMatrix: number;
  retainer: number;
  /** Packaging and delivery, once per order. */
  delivery: number;
  /** Orders below this total get a service fee that tops them up to it. */
  minimumOrder: number;
  monthlyThreshold: number;
}

export const PRICE_SETS: Readonly<Record<CurrencyCode, Readonly<PriceSet>>> =
  Object.freeze({
    rub: Object.freeze({
      currency: "rub",
      symbol: "₽",
      singleLayerMaterial: 90_000,
      threeLayerMaterial: 100_000,
      softMatrix: 100_000,
      hardMatrix: 100_000,
      retainer: 100_000,
      delivery: 150_000,
      minimumOrder: 1_000_000,
      monthlyThreshold: 20_000_000,
    }),
    eur: Object.freeze({
      currency: "eur",
      symbol: "€",
      singleLayerMaterial: 1390,
      threeLayerMaterial: 1490,
      softMatrix: 1490,
      hardMatrix: 1490,
      retainer: 1490,
      delivery: 1500,
      minimumOrder: 15_000,
      monthlyThreshold: 200_000,
    }),
  });

const LOCALES: Record<string, string> = {
  ru: "ru-RU",
  en: "en-GB",
  de: "de-DE",
  es: "es-ES",
  fr: "fr-FR",
  it: "it-IT",
};

/**
 * A price-list amount for display: rubles with Russian grouping and no decimals ("100 000 ₽",
 * whatever the language, customer-side §9); euros always with two decimals in the viewer's locale
 * ("13,90 €", "€13.90") — DESIGN §3 overrides the spec's "one decimal" (ADR 043).
 */
export function formatPriceSetAmount(
  minorUnits: number,
  currency: CurrencyCode,
  language = "ru"
): string {
  if (currency === "rub") {
    return numberFormat("ru-RU", {
      style: "currency",
      currency: "RUB",
      minimumFractionDigits: 0,
      maximumFractionDigits: 0,
    }).format(minorUnits / 100);
  }
  return numberFormat(LOCALES[language] ?? "ru-RU", {
    style: "currency",
    currency: "EUR",
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  }).format(minorUnits / 100);
}
