import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { SectionError } from "~/components/section-error";
import { TranslationsNav } from "~/components/translations/translations-nav";
import { useTranslation } from "~/components/i18n/i18n-context";
import { LANGUAGE_NAMES, SOURCE_LANGUAGE } from "~/modules/i18n/languages";
import { catalogueUrl, type Place, TARGET_LANGUAGES } from "~/modules/translations/catalogue";
import { cataloguePageAction, loadCataloguePage } from "~/modules/translations/catalogue-page.server";
import type { FormReply } from "~/modules/http/forms/submission.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }, { name: "robots", content: "noindex" }];

/**
 * The catalogue of interface texts (ADR 069): every key with its languages, what is missing
 * highlighted, where it is used, the staff's overrides marked; one key's text in one language is
 * overridden from here.
 */
export async function loader(args: LoaderFunctionArgs) {
  return loadCataloguePage(args);
}

export async function action(args: ActionFunctionArgs) {
  return cataloguePageAction(args);
}

function PlaceList({ places }: { places: readonly Place[] }) {
  const { t } = useTranslation();
  return <>{places.map((place) => (place.startsWith("/") ? place : t(`translations.catalogue.places.${place}`))).join(", ") || "—"}</>;
}

export default function TranslationsCatalogue() {
  const { query, total, matching, pages, missing, rows, editing, overridesFailed } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>() as FormReply | undefined;
  const busy = useNavigation().state === "submitting";
  const { t } = useTranslation();
  const at = (page: number) => catalogueUrl({ ...query, page });
  const editError = reply?.error ? Object.values(reply.error).flat()[0] : undefined;
  const typed = typeof reply?.initialValue?.translatedText === "string" ? reply.initialValue.translatedText : undefined;
  return (
    <section className="bo-page bo-catalogue">
      <h1>{t("translations.catalogue.title")}</h1>
      <TranslationsNav current="catalogue" />
      <p className="muted">{t("translations.catalogue.intro")}</p>
      <p className="catalogue-summary">
        {t("translations.catalogue.keys", { total })} · {t("translations.catalogue.missingIn")}{" "}
        {TARGET_LANGUAGES.map((language, index) => (
          <span key={language}>
            {index > 0 ? " · " : null}
            <Link to={catalogueUrl({ missing: language })} className={missing[language] > 0 ? "catalogue-gap" : undefined} aria-label={t("translations.catalogue.missingLink", { code: language.toUpperCase(), language: LANGUAGE_NAMES[language], number: missing[language] })}>
              {language.toUpperCase()} {missing[language]}
            </Link>
          </span>
        ))}
      </p>
      {overridesFailed ? <SectionError failure={{ title: "failures.unexpected", message: "translations.catalogue.overridesFailed" }} /> : null}

      <Form method="get" className="filters" role="search">
        <label htmlFor="catalogue-q" className="visually-hidden">
          {t("translations.catalogue.searchLabel")}
        </label>
        <input id="catalogue-q" type="search" name="q" defaultValue={query.q} maxLength={200} placeholder={t("translations.catalogue.searchPlaceholder")} />
        <label htmlFor="catalogue-missing" className="visually-hidden">
          {t("translations.catalogue.missingFilter")}
        </label>
        <select id="catalogue-missing" name="missing" defaultValue={query.missing ?? ""}>
          <option value="">{t("translations.catalogue.allTexts")}</option>
          {TARGET_LANGUAGES.map((language) => (
            <option key={language} value={language}>
              {t("translations.catalogue.missingOption", { language: LANGUAGE_NAMES[language] })}
            </option>
          ))}
        </select>
        <label className="checkbox">
          <input type="checkbox" name="overridden" value="1" defaultChecked={query.overridden} />
          <span>{t("translations.catalogue.overriddenOnly")}</span>
        </label>
        <button type="submit" className="button button-secondary button-small">
          {t("translations.search")}
        </button>
        {query.q || query.missing || query.overridden ? (
          <Link className="button button-secondary button-small" to={catalogueUrl({})}>
            {t("translations.reset")}
          </Link>
        ) : null}
      </Form>

      {editing ? (
        <Form method="post" action={catalogueUrl(query)} className="card stack catalogue-edit" aria-labelledby="catalogue-edit-title">
          <h2 id="catalogue-edit-title">{t("translations.catalogue.editTitle", { key: editing.key, language: LANGUAGE_NAMES[editing.lang] })}</h2>
          <input type="hidden" name="intent" value="override" />
          <input type="hidden" name="key" value={editing.key} />
          <input type="hidden" name="targetLanguage" value={editing.lang} />
          <input type="hidden" name="q" value={query.q} />
          <input type="hidden" name="missing" value={query.missing ?? ""} />
          <input type="hidden" name="overridden" value={query.overridden ? "1" : ""} />
          <input type="hidden" name="page" value={String(query.page)} />
          <p className="small muted">{t("translations.original")}</p>
          <p lang="ru">{editing.source}</p>
          <div className="field">
            <label htmlFor="catalogue-text">{t("translations.translation")}</label>
            <textarea
              id="catalogue-text"
              name="translatedText"
              lang={editing.lang}
              rows={3}
              defaultValue={typed ?? ("text" in editing.cell ? editing.cell.text : "")}
              aria-invalid={editError ? true : undefined}
              aria-describedby={editError ? "catalogue-text-error" : "catalogue-text-hint"}
            />
            <p id="catalogue-text-hint" className="hint">
              {t("translations.catalogue.overrideHint")}
            </p>
            {editError ? (
              <p id="catalogue-text-error" className="field-error" role="alert">
                {t(editError, { names: "" })}
              </p>
            ) : null}
          </div>
          <div className="bo-dialog-actions">
            <Link to={catalogueUrl(query)} className="button button-secondary">
              {t("bo.dialog.cancel")}
            </Link>
            <button type="submit" className="button" disabled={busy}>
              {t("translations.save")}
            </button>
          </div>
        </Form>
      ) : null}

      <p className="translation-counter" aria-live="polite">
        {t("translations.catalogue.found", { matching })} · {t("translations.catalogue.pageOf", { page: query.page, pages })}
      </p>
      {rows.length === 0 ? (
        <p className="empty">{t("translations.nothingFound")}</p>
      ) : (
        <ul className="catalogue-list">
          {rows.map((row) => (
            <li key={row.key} id={`text-${row.key}`} className="card catalogue-row">
              <p className="catalogue-key">
                <code>{row.key}</code> <span className="small muted">{t("translations.catalogue.usedOn")}: <PlaceList places={row.places} /></span>
              </p>
              <p lang="ru" className="catalogue-source">
                <span className="badge">{SOURCE_LANGUAGE.toUpperCase()}</span> {row.source}
              </p>
              <dl className="catalogue-cells">
                {TARGET_LANGUAGES.map((language) => {
                  const cell = row.cells[language];
                  return (
                    <div key={language} className={`catalogue-cell catalogue-${cell.state}`}>
                      <dt>
                        <abbr title={LANGUAGE_NAMES[language]}>{language.toUpperCase()}</abbr>
                      </dt>
                      <dd>
                        {cell.state === "missing" ? (
                          <strong className="catalogue-gap">{t("translations.catalogue.missing")}</strong>
                        ) : cell.state === "notNeeded" ? (
                          <span className="muted">{t("translations.catalogue.notNeeded")}</span>
                        ) : (
                          <span lang={language}>{cell.text}</span>
                        )}
                        {cell.state === "override" ? <span className="badge catalogue-override-mark">{t("translations.catalogue.overridden")}</span> : null}{" "}
                        {cell.state === "notNeeded" ? null : (
                          <Link className="small" to={`${catalogueUrl(query, { edit: row.key, lang: language })}#catalogue-edit-title`} aria-label={t("translations.catalogue.editLabel", { action: cell.state === "missing" ? t("translations.catalogue.translate") : t("translations.edit"), key: row.key, language: LANGUAGE_NAMES[language] })}>
                            {cell.state === "missing" ? t("translations.catalogue.translate") : t("translations.edit")}
                          </Link>
                        )}
                      </dd>
                    </div>
                  );
                })}
              </dl>
            </li>
          ))}
        </ul>
      )}
      {pages > 1 ? (
        <nav className="pagination" aria-label={t("pagination.label")}>
          {query.page > 1 ? <Link to={at(query.page - 1)}>{t("pagination.previous")}</Link> : null}
          <span>{t("translations.catalogue.pageOf", { page: query.page, pages })}</span>
          {query.page < pages ? <Link to={at(query.page + 1)}>{t("pagination.next")}</Link> : null}
        </nav>
      ) : null}
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
