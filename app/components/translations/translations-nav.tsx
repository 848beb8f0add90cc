import { Link } from "@remix-run/react";
import { useTranslation } from "~/components/i18n/i18n-context";

/** The translations pages' two views: the catalogue of every text, and the staff's overrides (ADR 069). */
export function TranslationsNav({ current }: { current: "catalogue" | "overrides" }) {
  const { t } = useTranslation();
  const link = (view: "catalogue" | "overrides", to: string, label: string) => (
    <Link to={to} aria-current={current === view ? "page" : undefined} className={current === view ? "active" : undefined}>
      {t(label)}
    </Link>
  );
  return (
    <nav className="tabs translations-nav" aria-label={t("translations.catalogue.views")}>
      {link("catalogue", "/backoffice/translate/catalogue", "translations.catalogue.tab")}
      {link("overrides", "/backoffice/translate", "translations.catalogue.overridesTab")}
    </nav>
  );
}
