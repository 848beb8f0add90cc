import { sql } from "kysely";
import type { DB } from "~/modules/db/db.server";
import type { Language } from "~/modules/i18n/languages";

/**
 * The staff editor's reads and writes on `translations` (staff-partner-packer §2 "/backoffice/translate",
 * §7). Every write bumps `translations_version` through the table's trigger, which is what makes
 * other instances drop their cached overrides.
 */

export const LIST_LIMIT = 500;

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

/**
 * Newest first. The search matches the original, the translation and both language codes,
 * case-insensitively (staff-partner-packer §5).
 */
export async function searchTranslations(db: DB, query: string): Promise<{ rows: TranslationRecord[]; total: number; matching: number }> {
  const text = query.trim();
  let select = db.selectFrom("translations");
  if (text) {
    const pattern = likePattern(text);
    select = select.where((eb) =>
      eb.or([eb("original_text", "ilike", pattern), eb("translated_text", "ilike", pattern), eb("source_language", "ilike", pattern), eb("target_language", "ilike", pattern)]),
    );
  }
  const [rows, total, matching] = await Promise.all([
    select
      .select(["id", "original_text", "translated_text", "source_language", "target_language", "updated_at"])
      .orderBy("updated_at", "desc")
      .orderBy("id")
      .limit(LIST_LIMIT)
      .execute(),
    db.selectFrom("translations").select(sql<number>`count(*)::int`.as("n")).executeTakeFirstOrThrow(),
    select.select(sql<number>`count(*)::int`.as("n")).executeTakeFirstOrThrow(),
  ]);
  return {
    rows: rows.map((row) => ({
      id: row.id,
      originalText: row.original_text,
      translatedText: row.translated_text,
      sourceLanguage: row.source_language,
      targetLanguage: row.target_language,
      updatedAt: row.updated_at,
    })),
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
