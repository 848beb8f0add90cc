import { useMemo } from "react";
import { I18nProvider } from "~/components/i18n/i18n-context";
import { useSharedTexts } from "~/components/i18n/shared-texts";
import type { Messages } from "~/modules/i18n/translate";
import { useRootData } from "~/modules/layout/root-data";

/**
 * Texts only one page needs (the landing, the legal documents) come from that page's loader rather
 * than with every page from the root loader; this adds them to the shared texts for the page's tree.
 */
export function PageTexts({ scope, texts, children }: { scope: string; texts: Messages; children: React.ReactNode }) {
  const root = useRootData();
  const shared = useSharedTexts(root?.i18n.textsKey);
  const messages = useMemo(() => ({ ...(shared ?? {}), [scope]: texts }), [shared, scope, texts]);
  return (
    <I18nProvider language={root?.i18n.locale ?? "ru"} messages={messages} strict={root?.i18n.strict ?? false}>
      {children}
    </I18nProvider>
  );
}
