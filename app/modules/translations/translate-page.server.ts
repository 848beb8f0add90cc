import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, type AppLoadContext } from "@remix-run/node";
import { requireStaff } from "~/modules/auth/guards.server";
import { type DB, getDb } from "~/modules/db/db.server";
import { readFormData } from "~/modules/http/request.server";
import { redirectWithToast } from "~/modules/http/toast.server";
import { getLocale } from "~/modules/http/request-context.server";
import { NAMESPACE, resources } from "~/modules/i18n/resources.server";
import type { Messages } from "~/modules/i18n/translate";
import { addSchema, deleteSchema, intentOf, updateSchema } from "./forms.server";
import { invalidateTranslationCache, textTranslator } from "./overrides.server";
import { addTranslation, deleteTranslation, searchTranslations, updateTranslation } from "./repository.server";
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

function listUrl(query: string) {
  return query ? `/backoffice/translate?q=${encodeURIComponent(query)}` : "/backoffice/translate";
}

export async function loadTranslatePage(request: Request, context: AppLoadContext) {
  await requireStaff(request, context);
  const t = await textTranslator((await getLocale(request, context)).language);
  const query = (new URL(request.url).searchParams.get("q") ?? "").trim();
  const counts = interfaceTextCounts(resources.ru[NAMESPACE]);
  try {
    const { rows, total, matching } = await searchTranslations(await getDb(), query);
    return {
      title: t("translations.title"),
      query,
      loadFailed: false,
      total,
      matching,
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
      rows: [],
    };
  }
}

/** What the form's reply says: the intent and row it answers, and conform's result. */
export type TranslateReply = {
  intent: "add" | "update" | "delete";
  id: string | null;
  result: SubmissionResult<string[]>;
};

interface TranslateIntentArgs {
  db: DB;
  form: FormData;
  reply: (result: SubmissionResult<string[]>, status: number) => ReturnType<typeof data<TranslateReply>>;
  failed: (description: string) => Promise<Response>;
  done: (title: string) => Promise<Response>;
}

async function addOverride({ db, form, reply, done }: TranslateIntentArgs) {
  const submission = parseWithZod(form, { schema: addSchema });
  if (submission.status !== "success") return reply(submission.reply() as SubmissionResult<string[]>, 400);
  if ((await addTranslation(db, submission.value)) === "duplicate") {
    return reply(
      submission.reply({
        formErrors: ["translations.errors.duplicate"],
      }) as SubmissionResult<string[]>,
      400,
    );
  }
  return done("translations.toasts.added");
}

async function updateOverride({ db, form, reply, failed, done }: TranslateIntentArgs) {
  const submission = parseWithZod(form, { schema: updateSchema });
  // A forged id matches no row on the page, where its error would show: say so in a toast.
  if (submission.status !== "success" && submission.error?.id) return failed("translations.errors.notFound");
  if (submission.status !== "success") return reply(submission.reply() as SubmissionResult<string[]>, 400);
  const outcome = await updateTranslation(db, submission.value.id, submission.value);
  if (outcome === "duplicate")
    return reply(
      submission.reply({
        formErrors: ["translations.errors.duplicate"],
      }) as SubmissionResult<string[]>,
      400,
    );
  if (outcome === "missing") return failed("translations.errors.notFound");
  return done("translations.toasts.updated");
}

async function deleteOverride({ db, form, failed, done }: TranslateIntentArgs) {
  const submission = parseWithZod(form, { schema: deleteSchema });
  if (submission.status !== "success" || !(await deleteTranslation(db, submission.value.id))) return failed("translations.errors.notFound");
  return done("translations.toasts.deleted");
}

const TRANSLATE_INTENTS: Record<TranslateReply["intent"], (args: TranslateIntentArgs) => Promise<Response | ReturnType<typeof data<TranslateReply>>>> = {
  add: addOverride,
  update: updateOverride,
  delete: deleteOverride,
};

export async function translatePageAction(request: Request, context: AppLoadContext) {
  await requireStaff(request, context);
  const form = await readFormData(request, context);
  const back = listUrl(String(form.get("q") ?? "").trim());
  const intent = intentOf(form);
  if (!intent) throw new Response("Unknown action", { status: 400 });
  const id = typeof form.get("id") === "string" ? String(form.get("id")) : null;
  const reply = (result: SubmissionResult<string[]>, status: number) => data<TranslateReply>({ intent, id, result }, { status });
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
    return await TRANSLATE_INTENTS[intent]({ db, form, reply, failed, done });
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
