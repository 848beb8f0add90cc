import { RemixI18Next } from "remix-i18next/server";
import { getConfig } from "~/modules/config/config.server";
import { cookies } from "~/modules/http/cookies.server";
// remix-i18next's own detection (below) is the one other reader of the market; pages read it through the request context.
// eslint-disable-next-line no-restricted-imports
import { getMarket } from "~/modules/market/market.server";
import { type Market, MARKET_TRAITS } from "~/modules/market/market";
import { chooseLanguage, type Language } from "./languages";
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
    order: ["custom"],
    async findLocale(request) {
      return getLanguage(request, getMarket(request));
    },
  },
  i18next: { ...i18nOptions, resources, saveMissing: true, missingKeyHandler: onMissingKey },
});

/** The language of a request as it arrived; read through the request context (getLocale), which keeps it. */
export async function getLanguage(request: Request, market: Market): Promise<Language> {
  const saved = await cookies.language().parse(request.headers.get("Cookie"));
  return chooseLanguage({
    pathname: new URL(request.url).pathname,
    saved: typeof saved === "string" ? saved : null,
    marketDefault: MARKET_TRAITS[market].defaultLanguage,
  });
}

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
