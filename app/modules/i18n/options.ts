/** i18next options shared by server and browser, without the texts (the browser gets them per page). */
export const i18nOptions = {
  supportedLngs: ["ru", "en", "de", "es", "fr", "it"],
  fallbackLng: false,
  defaultNS: "common",
  ns: ["common"],
  interpolation: { escapeValue: false },
  react: { useSuspense: false },
} as const;
