import { numberFormat } from "~/modules/i18n/intl";
/** Money is kept in integer minor units (kopecks, cents) everywhere (DESIGN §4.11). */
export type CurrencyCode = "rub" | "eur";

const LOCALES: Record<string, string> = { ru: "ru-RU", en: "en-GB", de: "de-DE", es: "es-ES", fr: "fr-FR", it: "it-IT" };

/** Rubles without decimals, euros always with two (DESIGN §3, ADR 043), grouped per the reader's language. */
export function formatMoney(minorUnits: number, currency: CurrencyCode, language = "ru"): string {
  const major = minorUnits / 100;
  return numberFormat(LOCALES[language] ?? "ru-RU", {
    style: "currency",
    currency: currency.toUpperCase(),
    minimumFractionDigits: currency === "rub" ? 0 : 2,
    maximumFractionDigits: currency === "rub" ? 0 : 2,
  }).format(major);
}
