/** The six interface languages (DESIGN §4.30). Russian is the source and the fallback. */
export const LANGUAGES = ["ru", "en", "de", "es", "fr", "it"] as const;
export type Language = (typeof LANGUAGES)[number];
export const SOURCE_LANGUAGE: Language = "ru";

export const LANGUAGE_NAMES: Record<Language, string> = {
  ru: "Русский",
  en: "English",
  de: "Deutsch",
  es: "Español",
  fr: "Français",
  it: "Italiano",
};


export function isLanguage(value: unknown): value is Language {
  return typeof value === "string" && (LANGUAGES as readonly string[]).includes(value);
}

/** The language named by the first path segment (`/en`, `/de/...`), if any. Exact, lower-case codes only. */
export function languageFromPath(pathname: string): Language | null {
  const first = pathname.split("/")[1] ?? "";
  return isLanguage(first) ? first : null;
}

/**
 * The language rule (customer-side §4 "Language"): the URL language if valid, else the saved
 * choice, else the market's default.
 */
export function chooseLanguage(input: { pathname: string; saved: string | null | undefined; marketDefault: Language }): Language {
  return languageFromPath(input.pathname) ?? (isLanguage(input.saved) ? input.saved : input.marketDefault);
}

/** Where the language picker sends a visitor: home pages become `/{lang}`, other pages stay. */
export function pathAfterLanguageChange(pathname: string, language: Language): string {
  const current = languageFromPath(pathname);
  const rest = current ? pathname.slice(current.length + 1) : pathname;
  if (rest === "" || rest === "/") return `/${language}`;
  return rest.startsWith("/") ? rest : `/${rest}`;
}
