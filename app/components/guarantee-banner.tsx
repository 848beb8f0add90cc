import { useTranslation } from "~/components/i18n/i18n-context";

export function GuaranteeBanner() {
  const { t } = useTranslation();
  return (
    <aside className="guarantee-banner" aria-label={t("banner.label")}>
      <div className="container">
        <strong>{t("banner.title")}</strong> <span>{t("banner.text")}</span>
      </div>
    </aside>
  );
}
