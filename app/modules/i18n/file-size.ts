/** File sizes as people read them, in their language (the upload step, the body limit's refusal). */

const UNITS = {
  ru: ["Байт", "КБ", "МБ", "ГБ"],
  other: ["B", "KB", "MB", "GB"],
} as const;

function numberFormat(language: string, digits: number): Intl.NumberFormat {
  const options = { minimumFractionDigits: digits, maximumFractionDigits: digits, useGrouping: false };
  try {
    return new Intl.NumberFormat(language, options);
  } catch {
    return new Intl.NumberFormat("en", options); // not a valid language tag
  }
}

/**
 * "1,50 МБ" (ru) / "1.50 MB" (en): base 1024, two decimals with the language's decimal separator,
 * whole bytes below 1 KB ("512 Байт"), GB at most. Negative or non-finite sizes show as 0.
 */
export function formatFileSize(bytes: number, language: string): string {
  const units = language === "ru" || language.startsWith("ru-") ? UNITS.ru : UNITS.other;
  const size = Number.isFinite(bytes) && bytes > 0 ? Math.round(bytes) : 0;
  if (size < 1024) return `${numberFormat(language, 0).format(size)} ${units[0]}`;
  let unit = 1;
  let value = size / 1024;
  // Step up while the value would print as 1024.00 or more.
  while (unit < units.length - 1 && Math.round(value * 100) / 100 >= 1024) {
    value /= 1024;
    unit++;
  }
  return `${numberFormat(language, 2).format(value)} ${units[unit]}`;
}
