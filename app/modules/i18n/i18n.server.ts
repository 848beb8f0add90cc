import { RemixI18Next } from "remix-i18next/server";
import { getConfig } from "~/modules/config/config.server";
import type { Language } from "./languages";
import { i18nOptions, resources } from "./resources.server";
import { logger } from "~/modules/log/logger.server";

/**
 * A key used in code but absent from the locale files is a bug: in tests it fails the request
 * (and so the test); elsewhere it is logged and the Russian text is shown.
 */
export function onMissingKey(languages: readonly string[], namespace: string, key: string) {
  const message = `Missing translation: ${namespace}:${key} (${languages.join(",")})`;
  if (getConfig().env === "test" || process.env.I18N_STRICT === "1") throw new Error(message);
  logger.error(message);
}

export const remixI18n = new RemixI18Next({
  detection: {
    supportedLanguages: [...i18nOptions.supportedLngs],
    fallbackLanguage: i18nOptions.fallbackLng,
    // The language of a request is the request context's (getLocale); this instance only makes translators.
    order: ["custom"],
    findLocale: async () => i18nOptions.fallbackLng,
  },
  i18next: { ...i18nOptions, resources, saveMissing: true, missingKeyHandler: onMissingKey },
});

/**
 * One translator per language and process: `getFixedT` makes and initialises an i18next instance on
 * each call, work a request (the cabinet's, a mail's) need not repeat; the texts it reads are the
 * locale files, fixed for the process's life.
 */
const translators = new Map<Language, ReturnType<typeof remixI18n.getFixedT<"common">>>();

export function translatorFor(language: Language) {
  let translator = translators.get(language);
  if (!translator) {
    translator = remixI18n.getFixedT(language, "common");
    translators.set(language, translator);
    translator.catch(() => translators.delete(language));
  }
  return translator;
}

export type Translator = Awaited<ReturnType<typeof translatorFor>>;
