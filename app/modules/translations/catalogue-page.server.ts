import type { LoaderFunctionArgs, ActionFunctionArgs } from "@remix-run/node";
import { requireStaff } from "~/modules/auth/guards.server";
import { type DB, getDb } from "~/modules/db/db.server";
import { getLocale } from "~/modules/http/request/request-context.server";
import { readSubmission, refused, submittedText } from "~/modules/http/forms/submission.server";
import { redirectWithToast } from "~/modules/http/answers/toast.server";
import { NAMESPACE, resources } from "~/modules/i18n/resources.server";
import { logger } from "~/modules/log/logger.server";
import { buildCatalogue, CATALOGUE_PAGE_SIZE, catalogueUrl, type CatalogueQuery, matches, missingCounts, type OverridesByLanguage, shownText, TARGET_LANGUAGES, type TargetLanguage, textAt } from "./catalogue";
import { catalogueOverrideSchema, catalogueQuerySchema } from "./forms";
import { invalidateTranslationCache, textTranslator } from "./overrides.server";
import { samePlaceholders } from "./texts";

/**
 * The catalogue of interface texts (ADR 069): every key of the base locale with each language's
 * text, what is missing, where it is used and which texts staff overrode; searchable and paged.
 * Built per request from the locale files (read once per process) and the overrides' rows — some
 * 1,500 keys, a few milliseconds; only one page of rows is sent.
 */

async function readOverrides(db: DB): Promise<OverridesByLanguage> {
  const rows = await db.selectFrom("translations").select(["original_text", "translated_text", "target_language"]).where("source_language", "=", "ru").execute();
  const byLanguage = new Map<string, Map<string, string>>();
  for (const row of rows) {
    const language = byLanguage.get(row.target_language) ?? new Map<string, string>();
    language.set(row.original_text, row.translated_text);
    byLanguage.set(row.target_language, language);
  }
  return byLanguage;
}

function catalogueOf(overrides: OverridesByLanguage) {
  const targets = Object.fromEntries(TARGET_LANGUAGES.map((language) => [language, resources[language][NAMESPACE]])) as Record<TargetLanguage, (typeof resources)["en"]["common"]>;
  return buildCatalogue(resources.ru[NAMESPACE], targets, overrides);
}

function parseQuery(url: URL) {
  // An empty field is no filter (the form sends `missing=` for "all texts").
  const parsed = catalogueQuerySchema.safeParse(Object.fromEntries([...url.searchParams].filter(([, value]) => value !== "")));
  // A query the page cannot read shows the catalogue's first page.
  return parsed.success ? parsed.data : catalogueQuerySchema.parse({});
}

export async function loadCataloguePage({ request, context }: LoaderFunctionArgs) {
  await requireStaff(request, context);
  const t = await textTranslator((await getLocale(request, context)).language);
  const { q, missing, overridden, page, edit, lang } = parseQuery(new URL(request.url));
  const query: CatalogueQuery = { q, missing: missing ?? null, overridden: overridden === "1", page };
  let overrides: OverridesByLanguage = new Map();
  let overridesFailed = false;
  try {
    overrides = await readOverrides(await getDb());
  } catch (error) {
    // The files' texts still show; the overrides' marks are said to be missing (ADR 026).
    logger.error("back-office: loading translation overrides for the catalogue failed:", error);
    overridesFailed = true;
  }
  const all = catalogueOf(overrides);
  const found = all.filter((row) => matches(row, query));
  const pages = Math.max(1, Math.ceil(found.length / CATALOGUE_PAGE_SIZE));
  const current = Math.min(page, pages);
  const rows = found.slice((current - 1) * CATALOGUE_PAGE_SIZE, current * CATALOGUE_PAGE_SIZE);
  const editing = edit && lang ? all.find((row) => row.key === edit) : undefined;
  return {
    title: t("translations.catalogue.title"),
    query: { ...query, page: current },
    overridesFailed,
    total: all.length,
    matching: found.length,
    pages,
    missing: missingCounts(all),
    editing: editing && lang ? { key: editing.key, lang, source: editing.source, cell: editing.cells[lang] } : null,
    rows: rows.map((row) => ({
      key: row.key,
      source: shownText(row.source),
      places: row.places,
      cells: Object.fromEntries(TARGET_LANGUAGES.map((language) => {
        const cell = row.cells[language];
        return [language, cell.state === "file" || cell.state === "override" ? { state: cell.state, text: shownText(cell.text) } : { state: cell.state }];
      })) as Record<TargetLanguage, { state: "file" | "override" | "missing" | "notNeeded"; text?: string }>,
    })),
  };
}

/** Saves one key's text in one language as an override (a new row, or the existing override changed). */
export async function cataloguePageAction({ request, context }: ActionFunctionArgs) {
  await requireStaff(request, context);
  const submission = await readSubmission(request, context, catalogueOverrideSchema);
  if (submission.status !== "success") return refused(submission);
  const { key, targetLanguage, translatedText } = submission.value;
  const pageNumber = Number(submittedText(submission, "page") ?? "1");
  const back = catalogueUrl({
    q: (submission.value.q ?? "").slice(0, 200),
    missing: TARGET_LANGUAGES.includes(submission.value.missing as TargetLanguage) ? (submission.value.missing as TargetLanguage) : null,
    overridden: submission.value.overridden === "1",
    page: Number.isSafeInteger(pageNumber) && pageNumber > 0 ? pageNumber : 1,
  });
  const source = textAt(resources.ru[NAMESPACE], key);
  if (source === undefined) return refused(submission, undefined, 400, { key: ["translations.errors.unknownKey"] });
  if (!samePlaceholders(source, translatedText)) return refused(submission, undefined, 400, { translatedText: ["translations.errors.placeholders"] });
  try {
    const db = await getDb();
    await db
      .insertInto("translations")
      .values({ original_text: source, translated_text: translatedText, source_language: "ru", target_language: targetLanguage })
      .onConflict((oc) => oc.columns(["original_text", "source_language", "target_language"]).doUpdateSet({ translated_text: translatedText, updated_at: new Date() }))
      .execute();
  } catch (error) {
    logger.error("back-office: saving a catalogue override failed:", error);
    return redirectWithToast(back, { type: "error", title: "translations.errors.title", description: "translations.errors.addFailed" });
  }
  invalidateTranslationCache();
  return redirectWithToast(`${back}#${encodeURIComponent(`text-${key}`)}`, { type: "success", title: "translations.toasts.updated" });
}
