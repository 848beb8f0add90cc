import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { SectionError } from "~/components/section-error";
import { requireStaff } from "~/modules/auth/guards.server";
import { getDb } from "~/modules/db/db.server";
import { redirectWithToast } from "~/modules/http/toast.server";
import { LANGUAGE_NAMES, LANGUAGES, type Language } from "~/modules/i18n/languages";
import { useTranslation } from "~/modules/i18n/i18n-context";
import { NAMESPACE, resources } from "~/modules/i18n/resources.server";
import type { Messages } from "~/modules/i18n/translate";
import { addSchema, deleteSchema, intentOf, updateSchema } from "~/modules/translations/forms.server";
import { invalidateTranslationCache, textTranslator } from "~/modules/translations/overrides.server";
import { addTranslation, deleteTranslation, searchTranslations, updateTranslation } from "~/modules/translations/repository.server";
import { placeholdersOf } from "~/modules/translations/texts";
import { getLanguage } from "~/modules/i18n/i18n.server";
import { readFormData } from "~/modules/http/request.server";
import { dateTimeFormat } from "~/modules/i18n/intl";
import { logger } from "~/modules/log/logger.server";

const TARGETS = LANGUAGES.filter((language): language is Exclude<Language, "ru"> => language !== "ru");

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

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireStaff(request, context);
  const t = await textTranslator(await getLanguage(request));
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

export async function action({ request, context }: ActionFunctionArgs) {
  await requireStaff(request, context);
  const form = await readFormData(request);
  const back = listUrl(String(form.get("q") ?? "").trim());
  const intent = intentOf(form);
  if (!intent) throw new Response("Unknown action", { status: 400 });
  const id = typeof form.get("id") === "string" ? String(form.get("id")) : null;
  const reply = (result: SubmissionResult<string[]>, status: number) => data({ intent, id, result }, { status });
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
    if (intent === "add") {
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
    if (intent === "update") {
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
    const submission = parseWithZod(form, { schema: deleteSchema });
    if (submission.status !== "success" || !(await deleteTranslation(db, submission.value.id))) return failed("translations.errors.notFound");
    return done("translations.toasts.deleted");
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

type ActionResult = {
  intent: "add" | "update" | "delete";
  id: string | null;
  result: SubmissionResult<string[]>;
};

function errorsOf(action: ActionResult | undefined, intent: ActionResult["intent"], id: string | null = null): string[] {
  if (!action || action.intent !== intent || (id !== null && action.id !== id)) return [];
  const fieldErrors = Object.values(action.result.error ?? {}).flatMap((errors) => errors ?? []);
  return [...new Set(fieldErrors)];
}

function valueOf(action: ActionResult | undefined, name: string): string | undefined {
  const value = (action?.result.initialValue as Record<string, unknown> | undefined)?.[name];
  return typeof value === "string" ? value : undefined;
}

function ErrorList({ id, errors, original }: { id: string; errors: string[]; original: string }) {
  const { t } = useTranslation();
  if (errors.length === 0) return null;
  const names = placeholdersOf(original)
    .map((name) => `{{${name}}}`)
    .join(", ");
  return (
    <ul id={id} className="field-error translation-errors" role="alert">
      {errors.map((error) => (
        <li key={error}>{t(error, { names })}</li>
      ))}
    </ul>
  );
}

function EntryFields({ prefix, original, translated, target, errorId }: { prefix: string; original: string; translated: string; target: string; errorId?: string }) {
  const { t } = useTranslation();
  return (
    <div className="translation-fields">
      <div className="field">
        <label htmlFor={`${prefix}-original`}>{t("translations.original")}</label>
        <textarea id={`${prefix}-original`} name="originalText" rows={2} defaultValue={original} lang="ru" aria-describedby={errorId} />
      </div>
      <div className="field">
        <label htmlFor={`${prefix}-target`}>{t("translations.language")}</label>
        <select id={`${prefix}-target`} name="targetLanguage" defaultValue={target}>
          {TARGETS.map((language) => (
            <option key={language} value={language} lang={language}>
              {language.toUpperCase()} · {LANGUAGE_NAMES[language]}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor={`${prefix}-translated`}>{t("translations.translation")}</label>
        <textarea id={`${prefix}-translated`} name="translatedText" rows={2} defaultValue={translated} aria-describedby={errorId} />
      </div>
    </div>
  );
}

export default function BackofficeTranslate() {
  const { query, loadFailed, total, matching, rows } = useLoaderData<typeof loader>();
  const action = useActionData<typeof action>() as ActionResult | undefined;
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const { t, i18n } = useTranslation();
  const locale = i18n.language === "ru" ? "ru-RU" : i18n.language;
  const addErrors = errorsOf(action, "add");

  return (
    <section className="bo-translate">
      <h1>{t("translations.title")}</h1>
      <p className="muted">{t("translations.intro")}</p>

      <Form method="get" className="filters" role="search">
        <label htmlFor="translations-q" className="visually-hidden">
          {t("translations.searchLabel")}
        </label>
        <input id="translations-q" type="search" name="q" defaultValue={query} placeholder={t("translations.searchPlaceholder")} />
        <button type="submit" className="button button-secondary button-small">
          {t("translations.search")}
        </button>
        {query ? (
          <Link className="button button-secondary button-small" to="/backoffice/translate">
            {t("translations.reset")}
          </Link>
        ) : null}
      </Form>

      <details className="card translation-add" open={addErrors.length > 0 || total === 0}>
        <summary>
          <h2>{t("translations.addTitle")}</h2>
        </summary>
        <Form method="post" className="stack" noValidate>
          <input type="hidden" name="intent" value="add" />
          <input type="hidden" name="q" value={query} />
          <p className="hint">{t("translations.originalHint")}</p>
          <EntryFields
            prefix="add"
            original={valueOf(action?.intent === "add" ? action : undefined, "originalText") ?? ""}
            translated={valueOf(action?.intent === "add" ? action : undefined, "translatedText") ?? ""}
            target={valueOf(action?.intent === "add" ? action : undefined, "targetLanguage") ?? "en"}
            errorId={addErrors.length ? "add-errors" : undefined}
          />
          <ErrorList id="add-errors" errors={addErrors} original={valueOf(action, "originalText") ?? ""} />
          <div>
            <button type="submit" className="button" disabled={busy}>
              {t("translations.add")}
            </button>
          </div>
        </Form>
      </details>

      <p className="translation-counter" aria-live="polite">
        {t("translations.counter", { shown: rows.length, total })}
        {query && matching > rows.length ? ` · ${t("translations.more", { count: matching - rows.length })}` : null}
      </p>

      {loadFailed ? (
        <SectionError
          failure={{
            title: "failures.unexpected",
            message: "translations.errors.loadFailed",
          }}
        />
      ) : rows.length === 0 ? (
        <p className="empty">{query ? t("translations.nothingFound") : t("translations.empty")}</p>
      ) : (
        <ul className="translation-list">
          {rows.map((row) => {
            const rowErrors = errorsOf(action, "update", row.id);
            const editedValue = (name: string, fallback: string) => (rowErrors.length ? valueOf(action, name) ?? fallback : fallback);
            return (
              <li key={row.id} className="card translation-row">
                <div className="translation-texts">
                  <p className="translation-original" lang="ru">
                    {row.originalText}
                  </p>
                  <p className="translation-target">
                    <span className="badge" title={LANGUAGE_NAMES[row.targetLanguage as Language]}>
                      {row.sourceLanguage.toUpperCase()} → {row.targetLanguage.toUpperCase()}
                    </span>{" "}
                    <span lang={row.targetLanguage}>{row.translatedText}</span>
                  </p>
                  <p className="muted small">
                    {row.usedBy > 0 ? t("translations.usedBy", { count: row.usedBy }) : t("translations.notInInterface")} ·{" "}
                    {t("translations.updated", {
                      date: dateTimeFormat(locale, {
                        dateStyle: "short",
                        timeStyle: "short",
                      }).format(new Date(row.updatedAt)),
                    })}
                  </p>
                </div>
                <div className="translation-actions">
                  <details className="translation-edit" open={rowErrors.length > 0}>
                    <summary className="button button-secondary button-small">{t("translations.edit")}</summary>
                    <Form method="post" className="stack" noValidate>
                      <input type="hidden" name="intent" value="update" />
                      <input type="hidden" name="id" value={row.id} />
                      <input type="hidden" name="q" value={query} />
                      <EntryFields
                        prefix={`edit-${row.id}`}
                        original={editedValue("originalText", row.originalText)}
                        translated={editedValue("translatedText", row.translatedText)}
                        target={editedValue("targetLanguage", row.targetLanguage)}
                        errorId={rowErrors.length ? `errors-${row.id}` : undefined}
                      />
                      <ErrorList id={`errors-${row.id}`} errors={rowErrors} original={editedValue("originalText", row.originalText)} />
                      <div>
                        <button type="submit" className="button button-small" disabled={busy}>
                          {t("translations.save")}
                        </button>
                      </div>
                    </Form>
                  </details>
                  <details className="translation-delete">
                    <summary className="button button-secondary button-small danger">{t("translations.delete")}</summary>
                    <Form method="post" className="stack">
                      <input type="hidden" name="intent" value="delete" />
                      <input type="hidden" name="id" value={row.id} />
                      <input type="hidden" name="q" value={query} />
                      <p>{t("translations.confirmDelete")}</p>
                      <div>
                        <button type="submit" className="button button-small button-danger" disabled={busy}>
                          {t("translations.confirmYes")}
                        </button>
                      </div>
                    </Form>
                  </details>
                </div>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? "Aligner Lab" }, { name: "robots", content: "noindex" }];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
