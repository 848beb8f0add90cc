import { Link } from "@remix-run/react";
import { useTranslation } from "~/components/i18n/i18n-context";

/** Domestic market only: partner rewards are paid in roubles under the Russian partner offer. */
export function Partners() {
  const { t } = useTranslation();
  return (
    <section className="landing-section landing-section-alt" id="partners" aria-labelledby="partners-title">
      <div className="container partners">
        <div>
          <h2 id="partners-title">{t("landing.partners.title")}</h2>
          <p>{t("landing.partners.text")}</p>
        </div>
        <Link className="button button-secondary" to="/partner">
          {t("landing.partners.link")}
        </Link>
      </div>
    </section>
  );
}
