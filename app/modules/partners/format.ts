import { dateTimeFormat, numberFormat } from "~/modules/i18n/intl";
import type { Translate } from "~/modules/i18n/translate";
/**
 * Dates and percentages on the partner pages. Dates use the company's time zone (Moscow), so the
 * server's and the browser's renders agree and a year of activity ends on the same day for everyone.
 */
const LOCALES: Record<string, string> = { ru: "ru-RU", en: "en-GB", de: "de-DE", es: "es-ES", fr: "fr-FR", it: "it-IT" };
const TIME_ZONE = "Europe/Moscow";

export const localeOf = (language: string) => LOCALES[language] ?? "ru-RU";

export function formatDate(iso: string | null, language: string): string {
  if (!iso) return "—";
  return dateTimeFormat(localeOf(language), { timeZone: TIME_ZONE, dateStyle: "short" }).format(new Date(iso));
}

export function formatDateTime(iso: string | null, language: string): string {
  if (!iso) return "—";
  return dateTimeFormat(localeOf(language), { timeZone: TIME_ZONE, dateStyle: "short", timeStyle: "short" }).format(new Date(iso));
}

/** "7.5" → "7,50" in Russian: the reward percentage is always shown with two decimals (spec §9). */
export function formatPercent(value: string | number, language: string): string {
  return numberFormat(localeOf(language), { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(Number(value));
}

/** A payout's quarter as the books write it: "IV кв. 2026" in Russian, "Q4 2026" in English (each language's words). */
export function formatQuarter(t: Translate, year: number, quarter: number): string {
  return t(`partners.backoffice.payouts.periodValue.q${quarter}`, { year });
}
