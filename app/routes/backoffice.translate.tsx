import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { TranslationForm } from "~/components/translations/translation-fields";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { SectionError } from "~/components/section-error";
import { TranslationsNav } from "~/components/translations/translations-nav";
import { ListPager } from "~/components/lists/list-pager";
import { LANGUAGE_NAMES, type Language } from "~/modules/i18n/languages";
import { useTranslation } from "~/components/i18n/i18n-context";
import { zonedTimes } from "~/modules/i18n/clock";
import { useStaffTimeZone } from "~/components/backoffice/staff-clock";
import { replyFor } from "~/modules/validation/reply";
import { loadTranslatePage, translatePageAction, type TranslateReply } from "~/modules/translations/translate-page.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? "Aligner Lab" }, { name: "robots", content: "noindex" }];

export async function loader(args: LoaderFunctionArgs) {
  return loadTranslatePage(args);
}

export async function action(args: ActionFunctionArgs) {
  return translatePageAction(args);
}

/** Whether a refusal answers this form (its intent, and its row for an edit). */
function refusedHere(reply: TranslateReply | undefined): boolean {
  return Object.values(reply?.error ?? {}).some((errors) => (errors ?? []).length > 0);
}

const NEW_ENTRY = { originalText: "", translatedText: "", targetLanguage: "en" };

export default function BackofficeTranslate() {
  const { query, loadFailed, total, matching, page, pageSize, hasMore, cursors, rows } = useLoaderData<typeof loader>();
  const action = useActionData<typeof action>() as TranslateReply | undefined;
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const { t, i18n } = useTranslation();
  const when = zonedTimes(t, i18n.language, useStaffTimeZone());
  const addReply = replyFor(action, { intent: "add" });

  return (
    <section className="bo-translate">
      <h1>{t("translations.title")}</h1>
      <TranslationsNav current="overrides" />
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

      <details className="card translation-add" open={refusedHere(addReply) || total === 0}>
        <summary>
          <h2>{t("translations.addTitle")}</h2>
        </summary>
        <TranslationForm prefix="add" reply={addReply} entry={NEW_ENTRY} hidden={{ intent: "add", q: query }} before={<p className="hint">{t("translations.originalHint")}</p>}>
          <div>
            <button type="submit" className="button" disabled={busy}>
              {t("translations.add")}
            </button>
          </div>
        </TranslationForm>
      </details>

      <p className="translation-counter" aria-live="polite">
        {t("translations.counter", { shown: rows.length, total })}
      </p>
      <ListPager page={page} pageSize={pageSize} shown={rows.length} total={matching} hasMore={hasMore} cursors={cursors} summaryOnly />

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
            const rowReply = replyFor(action, { intent: "update", id: row.id });
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
                      date: when(row.updatedAt),
                    })}
                  </p>
                </div>
                <div className="translation-actions">
                  <details className="translation-edit" open={refusedHere(rowReply)}>
                    <summary className="button button-secondary button-small">{t("translations.edit")}</summary>
                    <TranslationForm prefix={`edit-${row.id}`} reply={rowReply} entry={{ originalText: row.originalText, translatedText: row.translatedText, targetLanguage: row.targetLanguage }} hidden={{ intent: "update", id: row.id, q: query }}>
                      <div>
                        <button type="submit" className="button button-small" disabled={busy}>
                          {t("translations.save")}
                        </button>
                      </div>
                    </TranslationForm>
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
      <ListPager page={page} pageSize={pageSize} shown={rows.length} total={matching} hasMore={hasMore} cursors={cursors} />
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
