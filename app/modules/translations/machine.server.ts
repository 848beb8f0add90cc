import type { DB } from "~/modules/db/db.server";
import type { Language } from "~/modules/i18n/languages";
import { samePlaceholders } from "./texts";
import { logger } from "~/modules/log/logger.server";

/**
 * Machine translation (staff-partner-packer §7, DESIGN §2, §4.30): off unless TRANSLATE_API_URL is
 * set. When on, a Russian text missing in a language is sent once, the answer is stored in
 * `translations` (a concurrent instance storing the same text first is fine: duplicates are
 * ignored), and from then on it is an ordinary override staff can edit. Any failure leaves the
 * Russian text in place, silently.
 */
export interface MachineTranslator {
  /** Translations keyed by the Russian original; texts it could not translate are simply absent. */
  translate(texts: readonly string[], target: Language): Promise<Record<string, string>>;
}

/**
 * The spec's `translate-text` function over HTTP: POST `{ texts, targetLanguage }`, answer
 * `{ translations: { [original]: translated } }`; the key, when set, goes as a bearer token.
 */
export function httpMachineTranslator(options: { url: string; key?: string; timeoutMs?: number; fetch?: typeof fetch }): MachineTranslator {
  const doFetch = options.fetch ?? fetch;
  return {
    async translate(texts, target) {
      const response = await doFetch(options.url, {
        method: "POST",
        headers: { "Content-Type": "application/json", ...(options.key ? { Authorization: `Bearer ${options.key}` } : {}) },
        body: JSON.stringify({ texts, targetLanguage: target, sourceLanguage: "ru" }),
        signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
      });
      if (!response.ok) throw new Error(`translation service answered ${response.status}`);
      const body = (await response.json()) as { translations?: unknown };
      const translations = body.translations;
      if (!translations || typeof translations !== "object") throw new Error("translation service answered without translations");
      return Object.fromEntries(Object.entries(translations).filter((entry): entry is [string, string] => typeof entry[1] === "string"));
    },
  };
}

/**
 * Asks the translator for `texts` and stores what comes back. Answers that are empty, equal to
 * the original or that lose a `{{placeholder}}` are dropped (the Russian text stays). Returns the
 * number of rows this call stored; never throws.
 */
export async function fillMissingTexts(db: DB, translator: MachineTranslator, target: Language, texts: readonly string[]): Promise<number> {
  if (target === "ru" || texts.length === 0) return 0;
  try {
    const answers = await translator.translate(texts, target);
    const rows = texts
      .map((original) => ({ original, translated: answers[original]?.trim() ?? "" }))
      .filter(({ original, translated }) => translated !== "" && translated !== original && samePlaceholders(original, translated))
      .map(({ original, translated }) => ({ original_text: original, translated_text: translated, source_language: "ru", target_language: target }));
    if (rows.length === 0) return 0;
    const stored = await db
      .insertInto("translations")
      .values(rows)
      .onConflict((oc) => oc.columns(["original_text", "source_language", "target_language"]).doNothing())
      .returning("id")
      .execute();
    return stored.length;
  } catch (error) {
    logger.warn(`machine translation to ${target} skipped:`, error instanceof Error ? error.message : error);
    return 0;
  }
}
