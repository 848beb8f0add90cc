import { LANGUAGE_NAMES, LANGUAGES, type Language } from "~/modules/i18n/languages";
import { useTranslation } from "~/modules/i18n/i18n-context";
import { placeholdersOf } from "~/modules/translations/texts";

const TARGETS = LANGUAGES.filter((language): language is Exclude<Language, "ru"> => language !== "ru");

/** A refused override's problems; a placeholder problem names the original's placeholders. */
export function ErrorList({ id, errors, original }: { id: string; errors: string[]; original: string }) {
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

/** The original, the language and the translation of one override. */
export function EntryFields({ prefix, original, translated, target, errorId }: { prefix: string; original: string; translated: string; target: string; errorId?: string }) {
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
