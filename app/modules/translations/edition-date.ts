/**
 * The edition date in the reader's language; French and Italian write the first of a month as an
 * ordinal (1er décembre, 1° dicembre), which `Intl` does not.
 */
export function editionDate(isoDate: string, language: string): string {
  const date = new Date(`${isoDate}T00:00:00Z`);
  const text = new Intl.DateTimeFormat(language, { dateStyle: "long", timeZone: "UTC" }).format(date);
  if (date.getUTCDate() !== 1) return text;
  if (language === "fr") return text.replace(/^1 /, "1er ");
  if (language === "it") return text.replace(/^1 /, "1° ");
  return text;
}
