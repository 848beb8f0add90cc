import { createHash } from "node:crypto";
import { getConfig } from "~/modules/config/config.server";
import { type DB, getDb } from "~/modules/db/db.server";
import { isLanguage, LANGUAGES, type Language } from "~/modules/i18n/languages";
import { STAFF_TEXT_AREAS } from "~/modules/i18n/text-areas";
import { NAMESPACE, resources } from "~/modules/i18n/resources.server";
import { createTranslator, type Messages, type Translate } from "~/modules/i18n/translate";
import { fillMissingTexts, httpMachineTranslator, type MachineTranslator } from "./machine.server";
import { buildTexts, missingTexts, without } from "./texts";
import { logger } from "~/modules/log/logger.server";

/**
 * Interface texts as pages get them: the locale files with the staff overrides of `translations`
 * applied (DESIGN §4.30). Every instance keeps the overrides in memory and, at most every
 * CACHE_MS, compares one number (`translations_version`, bumped by a trigger on every change)
 * with the one it loaded; only a new number re-reads the rows. An edit made here is visible at
 * once; on other instances within CACHE_MS. If the database is away, the last loaded overrides (or
 * the plain files) are used: texts never fail a page.
 */

export const CACHE_MS = 2_000;

/** Top-level keys a page sends itself from its loader instead of every page carrying them. */
export const PAGE_SCOPED = ["landing", "legal"] as const;
export type PageScope = (typeof PAGE_SCOPED)[number];

interface CacheState {
  version: number | null;
  checkedAt: number;
  overrides: Map<Language, Map<string, string>>;
  built: Map<string, Messages>;
  refreshing: Promise<void> | null;
  /** Texts already sent to machine translation by this process: each is asked once. */
  asked: Set<string>;
  translator: MachineTranslator | null | undefined;
}

declare global {
  // Kept across dev rebuilds, like the database client.
  var __alignerTranslations: CacheState | undefined;
}

function state(): CacheState {
  globalThis.__alignerTranslations ??= {
    version: null,
    checkedAt: 0,
    overrides: new Map(),
    built: new Map(),
    refreshing: null,
    asked: new Set(),
    translator: undefined,
  };
  return globalThis.__alignerTranslations;
}

function strict(): boolean {
  return getConfig().env === "test" || process.env.I18N_STRICT === "1";
}

function machineTranslator(): MachineTranslator | null {
  const cache = state();
  if (cache.translator === undefined) {
    const settings = getConfig().translation;
    cache.translator = settings ? httpMachineTranslator({ url: settings.url, key: settings.key }) : null;
  }
  return cache.translator;
}

async function readVersion(db: DB): Promise<number> {
  const row = await db.selectFrom("translations_version").select("version").executeTakeFirst();
  return Number(row?.version ?? 0);
}

async function loadOverrides(db: DB): Promise<Map<Language, Map<string, string>>> {
  const rows = await db
    .selectFrom("translations")
    .select(["original_text", "translated_text", "target_language"])
    .where("source_language", "=", "ru")
    .orderBy("updated_at")
    .execute();
  const byLanguage = new Map<Language, Map<string, string>>(LANGUAGES.map((language) => [language, new Map()]));
  for (const row of rows) byLanguage.get(row.target_language as Language)?.set(row.original_text, row.translated_text);
  return byLanguage;
}

async function refresh(): Promise<void> {
  const cache = state();
  if (Date.now() - cache.checkedAt < CACHE_MS) return;
  cache.refreshing ??= (async () => {
    try {
      const db = await getDb();
      const version = await readVersion(db);
      if (version !== cache.version) {
        const overrides = await loadOverrides(db);
        // The rows may be newer than `version`; the next check then simply reloads once more.
        cache.overrides = overrides;
        cache.version = version;
        cache.built.clear();
      }
    } catch (error) {
      logger.error("translation overrides: keeping the last loaded texts:", error instanceof Error ? error.message : error);
    } finally {
      cache.checkedAt = Date.now();
      cache.refreshing = null;
    }
  })();
  await cache.refreshing;
}

/**
 * The version of the staff's translations this process serves (checked at most every CACHE_MS):
 * pages kept in memory are valid only for the version they were made with.
 */
export async function currentTranslationsVersion(): Promise<number | null> {
  await refresh();
  return state().version;
}

/** Makes the next request of this instance re-check the version (after an edit made here). */
export function invalidateTranslationCache(): void {
  state().checkedAt = 0;
}

function askMachineTranslation(language: Language, source: Messages, target: Messages, overrides: ReadonlyMap<string, string>) {
  const translator = language === "ru" ? null : machineTranslator();
  if (!translator) return;
  const cache = state();
  const texts = missingTexts(source, target, overrides).filter((text) => !cache.asked.has(`${language}\u0000${text}`));
  if (texts.length === 0) return;
  for (const text of texts) cache.asked.add(`${language}\u0000${text}`);
  void (async () => {
    const stored = await fillMissingTexts(await getDb(), translator, language, texts);
    if (stored > 0) invalidateTranslationCache();
  })().catch(() => undefined);
}

/** Every interface text of a language, overrides applied. */
export async function textsFor(language: Language): Promise<Messages> {
  await refresh();
  const cache = state();
  const key = `${language}:all`;
  const cached = cache.built.get(key);
  if (cached) return cached;
  const source = resources.ru[NAMESPACE];
  const target = resources[language][NAMESPACE];
  const overrides = cache.overrides.get(language) ?? new Map<string, string>();
  const texts = language === "ru" ? source : buildTexts({ source, target, overrides, strict: strict() });
  askMachineTranslation(language, source, target, overrides);
  cache.built.set(key, texts);
  return texts;
}

/** What the root loader sends to every page: all texts except the page-scoped ones. */
export async function sharedTexts(language: Language, { staff = true }: { staff?: boolean } = {}): Promise<Messages> {
  const all = await textsFor(language);
  const cache = state();
  const key = `${language}:shared:${staff ? "staff" : "customer"}`;
  const cached = cache.built.get(key);
  if (cached && cache.built.get(`${language}:all`) === all) return cached;
  const shared = without(all, staff ? PAGE_SCOPED : [...PAGE_SCOPED, ...STAFF_TEXT_AREAS]);
  cache.built.set(key, shared);
  return shared;
}

const versions = new WeakMap<Messages, string>();

/** A short digest of a set of texts: it changes whenever a text does (an edit, a machine translation). */
function textsVersion(messages: Messages): string {
  let version = versions.get(messages);
  if (!version) {
    version = createHash("sha256").update(JSON.stringify(messages)).digest("base64url").slice(0, 12);
    versions.set(messages, version);
  }
  return version;
}

/**
 * The shared texts of a page with their key, `{locale}.{customer|staff}.{version}`: data requests
 * carry only the key, and the browser fetches `/texts/{key}` when it changes (ADR 022).
 */
export async function sharedTextsWithKey(language: Language, { staff }: { staff: boolean }): Promise<{ key: string; messages: Messages }> {
  const messages = await sharedTexts(language, { staff });
  return { key: `${language}.${staff ? "staff" : "customer"}.${textsVersion(messages)}`, messages };
}

/** Today's texts of a key's language and area, and whether the key is still their version; null for a key of neither. */
export async function textsOfKey(key: string): Promise<{ messages: Messages; current: boolean } | null> {
  const [language, area, version] = key.split(".");
  if (!isLanguage(language) || (area !== "staff" && area !== "customer")) return null;
  const { key: currentKey, messages } = await sharedTextsWithKey(language, { staff: area === "staff" });
  return { messages, current: currentKey === key && version !== undefined };
}

/** The texts of one page scope (`landing`, `legal`), for that page's loader to send. */
export async function pageTexts(language: Language, scope: PageScope): Promise<Messages> {
  const all = await textsFor(language);
  const texts = all[scope];
  return typeof texts === "object" ? texts : {};
}

/** A server-side translator over the same texts the pages show (loaders, meta of our pages). */
export async function textTranslator(language: Language): Promise<Translate> {
  const texts = await textsFor(language);
  return createTranslator(
    texts,
    (key) => {
      const message = `Missing translation: common:${key} (${language})`;
      if (strict()) throw new Error(message);
      logger.error(message);
    },
    language,
  );
}
