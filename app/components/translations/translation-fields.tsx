import { getFormProps, useForm } from "@conform-to/react";
import { Form } from "@remix-run/react";
import type { ReactNode } from "react";
import { Field } from "~/components/field";
import { LANGUAGE_NAMES, LANGUAGES, type Language } from "~/modules/i18n/languages";
import { useTranslation } from "~/components/i18n/i18n-context";
import { placeholdersOf } from "~/modules/translations/texts";
import type { TranslateReply } from "~/modules/translations/translate-page.server";
import { useBrowserCheck } from "~/modules/validation/browser";

const TARGETS = LANGUAGES.filter((language): language is Exclude<Language, "ru"> => language !== "ru");
const translationForms = () => import("~/modules/translations/forms");

interface Entry {
  originalText: string;
  translatedText: string;
  targetLanguage: string;
}

/**
 * The original, the language and the translation of one override, as a form of the page (adding
 * one, or changing a row): each field through `Field`, checked in the browser with the server's
 * schema (ADR 053); a duplicate is the form's own error. `prefix` names the controls' ids.
 */
export function TranslationForm({ prefix, reply, entry, hidden, before, children }: { prefix: string; reply?: TranslateReply; entry?: Entry; hidden: Record<string, string>; before?: ReactNode; children: ReactNode }) {
  const { t } = useTranslation();
  const { onValidate, warm } = useBrowserCheck(translationForms, (forms) => forms.translatePageSchema);
  const [form, fields] = useForm({ id: `${prefix}-form`, lastResult: reply, defaultValue: entry, onValidate });
  // A lost placeholder names the original's, as typed.
  const names = placeholdersOf(fields.originalText.value ?? entry?.originalText ?? "")
    .map((name) => `{{${name}}}`)
    .join(", ");
  return (
    <Form method="post" className="stack" {...getFormProps(form)} onFocus={warm}>
      {Object.entries(hidden).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      {before}
      {form.errors?.length ? (
        <p id={form.errorId} className="field-error" role="alert">
          {form.errors.map((error) => t(error)).join(" ")}
        </p>
      ) : null}
      <div className="translation-fields">
        <Field field={fields.originalText} id={`${prefix}-original`} label="translations.original" multiline control={{ rows: 2, lang: "ru" }} />
        <Field
          field={fields.targetLanguage}
          id={`${prefix}-target`}
          label="translations.language"
          options={TARGETS.map((language) => (
            <option key={language} value={language} lang={language}>
              {language.toUpperCase()} · {LANGUAGE_NAMES[language]}
            </option>
          ))}
        />
        <Field field={fields.translatedText} id={`${prefix}-translated`} label="translations.translation" multiline control={{ rows: 2 }} errorValues={{ names }} />
      </div>
      {children}
    </Form>
  );
}
