import { sql } from "kysely";
import type { DB } from "~/modules/db/db.server";
import { type KeysetKey, keysetPlan } from "~/modules/db/keyset.server";
import type { Cursor } from "~/modules/http/request/list-query";
import type { Language } from "~/modules/i18n/languages";

/**
 * The staff editor's reads and writes on `translations` (staff-partner-packer §2 "/backoffice/translate",
 * §7). Every write bumps `translations_version` through the table's trigger, which is what makes
 * other instances drop their cached overrides.
 */

/** Overrides on one page of the editor (ADR 098): each row carries its edit and delete forms (about 3.5 KB), so a page of 500 was 1.5 MB. */
export const TRANSLATIONS_PAGE_SIZE = 30;

export interface TranslationRecord {
  id: string;
  originalText: string;
  translatedText: string;
  sourceLanguage: string;
  targetLanguage: string;
  updatedAt: Date;
}

export interface TranslationInput {
  originalText: string;
  translatedText: string;
  targetLanguage: Exclude<Language, "ru">;
}

const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;

/** A page of the editor's list as the address asks for it: the search, and the keyset cursor of the pager's links (ADR 091). */
export interface TranslationsPageQuery {
  query: string;
  after: Cursor | null;
  before: Cursor | null;
}

/** Most recently changed first, ties by id. */
const TRANSLATION_KEYS: KeysetKey[] = [
  { expr: sql`updated_at`, cast: "timestamptz", descending: true },
  { expr: sql`id`, cast: "uuid", descending: false },
];

/**
 * One page of overrides, most recently changed first, from the pager's cursor (ADR 098): the search
 * matches the original, the translation and both language codes, case-insensitively
 * (staff-partner-packer §5). `total` counts every override and `matching` those the search finds —
 * a lab keeps a few thousand at most, so both are exact.
 */
export async function searchTranslations(db: DB, { query, after, before }: TranslationsPageQuery, pageSize = TRANSLATIONS_PAGE_SIZE) {
  const text = query.trim();
  const plan = keysetPlan(TRANSLATION_KEYS, after, before);
  let select = db.selectFrom("translations");
  if (text) {
    const pattern = likePattern(text);
    select = select.where((eb) =>
      eb.or([eb("original_text", "ilike", pattern), eb("translated_text", "ilike", pattern), eb("source_language", "ilike", pattern), eb("target_language", "ilike", pattern)]),
    );
  }
  let rows = select.select(["id", "original_text", "translated_text", "source_language", "target_language", "updated_at"]).select(plan.select);
  if (plan.past) rows = rows.where(plan.past);
  for (const [key, direction] of plan.order) rows = rows.orderBy(key, direction);
  const [read, total, matching] = await Promise.all([
    rows.limit(pageSize + 1).execute(),
    db.selectFrom("translations").select(sql<number>`count(*)::int`.as("n")).executeTakeFirstOrThrow(),
    select.select(sql<number>`count(*)::int`.as("n")).executeTakeFirstOrThrow(),
  ]);
  const page = plan.page(read, pageSize);
  return {
    rows: page.rows.map(
      (row): TranslationRecord => ({
        id: row.id,
        originalText: row.original_text,
        translatedText: row.translated_text,
        sourceLanguage: row.source_language,
        targetLanguage: row.target_language,
        updatedAt: row.updated_at,
      }),
    ),
    hasMore: page.hasMore,
    cursors: page.cursors,
    total: Number(total.n),
    matching: Number(matching.n),
  };
}

function isUniqueViolation(error: unknown): boolean {
  return typeof error === "object" && error !== null && "code" in error && (error as { code: unknown }).code === "23505";
}

/** `duplicate` when this original already has a translation into that language. */
export async function addTranslation(db: DB, input: TranslationInput): Promise<"added" | "duplicate"> {
  try {
    await db
      .insertInto("translations")
      .values({ original_text: input.originalText, translated_text: input.translatedText, source_language: "ru", target_language: input.targetLanguage })
      .execute();
    return "added";
  } catch (error) {
    if (isUniqueViolation(error)) return "duplicate";
    throw error;
  }
}

export async function updateTranslation(db: DB, id: string, input: TranslationInput): Promise<"updated" | "duplicate" | "missing"> {
  try {
    const result = await db
      .updateTable("translations")
      .set({ original_text: input.originalText, translated_text: input.translatedText, target_language: input.targetLanguage, updated_at: sql`now()` })
      .where("id", "=", id)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0 ? "updated" : "missing";
  } catch (error) {
    if (isUniqueViolation(error)) return "duplicate";
    throw error;
  }
}

export async function deleteTranslation(db: DB, id: string): Promise<boolean> {
  const result = await db.deleteFrom("translations").where("id", "=", id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
