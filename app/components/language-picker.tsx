import { Form, useLocation } from "@remix-run/react";
import { useTranslation } from "~/components/i18n/i18n-context";
import { isLanguage, LANGUAGE_NAMES, LANGUAGES } from "~/modules/i18n/languages";
import { Flag } from "./flag";

/** A plain form: works without JavaScript, the server sets the language cookie and redirects. */
export function LanguagePicker({ locale }: { locale: string }) {
  const { t } = useTranslation();
  const location = useLocation();
  return (
    <details className="language-picker">
      <summary aria-label={t("language.current", { code: locale.toUpperCase() })}>
        {isLanguage(locale) ? <Flag language={locale} /> : null} {locale.toUpperCase()}
      </summary>
      <Form method="post" action="/language" className="language-list" reloadDocument>
        <input type="hidden" name="redirectTo" value={`${location.pathname}${location.search}`} />
        <p className="language-title">{t("language.choose")}</p>
        {LANGUAGES.map((language) => (
          <button key={language} type="submit" name="lng" value={language} aria-current={language === locale ? "true" : undefined} lang={language}>
            <Flag language={language} /> {LANGUAGE_NAMES[language]}
            {language === locale ? <span className="check" aria-hidden="true">✓</span> : null}
          </button>
        ))}
      </Form>
    </details>
  );
}
