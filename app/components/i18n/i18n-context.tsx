import { createContext, useContext, useMemo } from "react";
import { reportProblem } from "~/modules/log/report-problem";
import { createTranslator, type Messages, type Translate } from "~/modules/i18n/translate";

interface I18nValue {
  language: string;
  t: Translate;
}

const I18nContext = createContext<I18nValue>({ language: "ru", t: (key) => key });

export function I18nProvider({ language, messages, strict, children }: { language: string; messages: Messages; strict: boolean; children: React.ReactNode }) {
  const value = useMemo(() => {
    const onMissing = (key: string) => {
      const message = `Missing translation: common:${key} (${language})`;
      // In tests a missing text fails the render, and so the test (DESIGN §4.30).
      if (strict) throw new Error(message);
      // This runs in the browser too, where the server's logger is not (app/modules/log/report-problem.ts).
      reportProblem(message);
    };
    return { language, t: createTranslator(messages, onMissing, language) };
  }, [language, messages, strict]);
  return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>;
}

/** Same shape as react-i18next's hook: `const { t, i18n } = useTranslation()`. */
export function useTranslation() {
  const { language, t } = useContext(I18nContext);
  return { t, i18n: { language } };
}
