import type { Submission } from "@conform-to/react";
import { listQuerySchema, readQuery } from "~/modules/http/request/list-query";
import type { LoaderFunctionArgs, ActionFunctionArgs } from "@remix-run/node";
import type * as z from "zod/mini";
import { requireStaff } from "~/modules/auth/guards.server";
import { type DB, getDb } from "~/modules/db/db.server";
import { type FormReply, intentValue, readSubmission, refused, submittedIntent, submittedText } from "~/modules/http/forms/submission.server";
import { redirectWithToast } from "~/modules/http/answers/toast.server";
import { getLocale } from "~/modules/http/request/request-context.server";
import { NAMESPACE, resources } from "~/modules/i18n/resources.server";
import type { Messages } from "~/modules/i18n/translate";
import { DUPLICATE, NOT_FOUND, translatePageSchema } from "./forms";
import { invalidateTranslationCache, textTranslator } from "./overrides.server";
import { addTranslation, deleteTranslation, searchTranslations, TRANSLATIONS_PAGE_SIZE, updateTranslation } from "./repository.server";
import { logger } from "~/modules/log/logger.server";

/** The back office's translations page (DESIGN §4.23): the list, and adding, changing and deleting an override. */
/** How many interface texts each Russian original stands for (to show where an override lands). */
function interfaceTextCounts(tree: Messages, counts = new Map<string, number>()): Map<string, number> {
  for (const value of Object.values(tree)) {
    if (typeof value === "string") counts.set(value, (counts.get(value) ?? 0) + 1);
    else interfaceTextCounts(value, counts);
  }
  return counts;
}

/** The overrides list's address (ADR 067): the kit's search text, page and keyset cursor (ADR 098). */
const overridesQuery = listQuerySchema();

function listUrl(query: string) {
  return query ? `/backoffice/translate?q=${encodeURIComponent(query)}` : "/backoffice/translate";
}

export async function loadTranslatePage({ request, context }: LoaderFunctionArgs) {
  await requireStaff(request, context);
  const t = await textTranslator((await getLocale(request, context)).language);
  const { q: query, page, after, before } = readQuery(request, overridesQuery);
  const counts = interfaceTextCounts(resources.ru[NAMESPACE]);
  try {
    const { rows, total, matching, hasMore, cursors } = await searchTranslations(await getDb(), { query, after, before });
    return {
      title: t("translations.title"),
      query,
      loadFailed: false,
      total,
      matching,
      // Without a cursor the list starts at its first page, whatever number the address names.
      page: after || before ? page : 1,
      pageSize: TRANSLATIONS_PAGE_SIZE,
      hasMore,
      cursors,
      rows: rows.map((row) => ({
        ...row,
        updatedAt: row.updatedAt.toISOString(),
        usedBy: counts.get(row.originalText) ?? 0,
      })),
    };
  } catch (error) {
    logger.error("back-office: loading translations failed:", error);
    return {
      title: t("translations.title"),
      query,
      loadFailed: true,
      total: 0,
      matching: 0,
      page: 1,
      pageSize: TRANSLATIONS_PAGE_SIZE,
      hasMore: false,
      cursors: { next: null, previous: null },
      rows: [],
    };
  }
}

/**
 * What a refused form gets back (ADR 053): conform's reply, whose typed values carry the intent and
 * the row it answers; a duplicate is the form's own error (key "").
 */
export type TranslateReply = FormReply;
type Intent = "add" | "update" | "delete";

interface TranslateIntentArgs {
  db: DB;
  submission: Submission<z.output<typeof translatePageSchema>, string[]>;
  failed: (description: string) => Promise<Response>;
  done: (title: string) => Promise<Response>;
}

const duplicate = (submission: TranslateIntentArgs["submission"]) => refused(submission, undefined, 400, { "": [DUPLICATE] });

async function addOverride({ db, submission, done }: TranslateIntentArgs) {
  const form = intentValue(submission, "add");
  if (!form) return refused(submission);
  if ((await addTranslation(db, form)) === "duplicate") return duplicate(submission);
  return done("translations.toasts.added");
}

async function updateOverride({ db, submission, failed, done }: TranslateIntentArgs) {
  const form = intentValue(submission, "update");
  // A forged id matches no row on the page, where its error would show: say so in a toast.
  if (!form && submission.status === "error" && submission.error?.id) return failed(NOT_FOUND);
  if (!form) return refused(submission);
  const outcome = await updateTranslation(db, form.id, form);
  if (outcome === "duplicate") return duplicate(submission);
  if (outcome === "missing") return failed(NOT_FOUND);
  return done("translations.toasts.updated");
}

async function deleteOverride({ db, submission, failed, done }: TranslateIntentArgs) {
  const form = intentValue(submission, "delete");
  if (!form || !(await deleteTranslation(db, form.id))) return failed(NOT_FOUND);
  return done("translations.toasts.deleted");
}

const TRANSLATE_INTENTS: Record<Intent, (args: TranslateIntentArgs) => Promise<Response | ReturnType<typeof refused>>> = {
  add: addOverride,
  update: updateOverride,
  delete: deleteOverride,
};

export async function translatePageAction({ request, context }: ActionFunctionArgs) {
  await requireStaff(request, context);
  const submission = await readSubmission(request, context, translatePageSchema);
  const back = listUrl((submittedText(submission, "q") ?? "").trim());
  const intent = submittedIntent(submission);
  if (intent !== "add" && intent !== "update" && intent !== "delete") throw new Response("Unknown action", { status: 400 });
  const failed = (description: string) =>
    redirectWithToast(back, {
      type: "error",
      title: "translations.errors.title",
      description,
    });
  const done = (title: string) => {
    invalidateTranslationCache();
    return redirectWithToast(back, { type: "success", title });
  };
  try {
    const db = await getDb();
    return await TRANSLATE_INTENTS[intent]({ db, submission, failed, done });
  } catch (error) {
    logger.error(`back-office: translation ${intent} failed:`, error);
    return failed(
      {
        add: "translations.errors.addFailed",
        update: "translations.errors.updateFailed",
        delete: "translations.errors.deleteFailed",
      }[intent],
    );
  }
}
