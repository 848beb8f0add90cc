import { dateTimeFormat } from "./intl";

/**
 * A date written out as each language writes it in a document: "1 December 2026", "1. Dezember 2026",
 * "1 de diciembre de 2026", and the first of a month as an ordinal where the language wants one —
 * "1er décembre 2026", "1° dicembre 2026" (Intl writes a bare "1"). For legal texts' edition dates.
 */
export function longDate(date: Date, language: string): string {
  const parts = dateTimeFormat(LOCALES[language] ?? language, { dateStyle: "long", timeZone: "UTC" }).formatToParts(date);
  const ordinal = date.getUTCDate() === 1 ? FIRST_OF_MONTH[language] : undefined;
  return parts.map((part) => (part.type === "day" && ordinal ? ordinal : part.value)).join("");
}

/** English as Europe writes it (day first), as money is (`money/format.ts`). */
const LOCALES: Record<string, string> = { en: "en-GB" };

const FIRST_OF_MONTH: Record<string, string> = { fr: "1er", it: "1°" };
