import { Link } from "@remix-run/react";
import { useTranslation } from "~/components/i18n/i18n-context";

const TERMS = ["refund", "shipping", "defects", "quality"] as const;

/** Domestic market only: its terms are those of the public offer, which the international market does not show. */
export function Guarantees() {
  const { t } = useTranslation();
  return (
    <section className="landing-section landing-section-alt" id="guarantees" aria-labelledby="guarantees-title">
      <div className="container guarantees">
        <div>
          <h2 id="guarantees-title">{t("landing.guarantees.title")}</h2>
          <p className="guarantee-lead">{t("landing.guarantees.lead")}</p>
          <p>
            <Link to="/public-offer">{t("landing.guarantees.offerLink")}</Link>
          </p>
          <a className="button button-secondary" href="#contacts">
            {t("landing.guarantees.contact")}
          </a>
        </div>
        <ul className="check-list">
          {TERMS.map((term) => (
            <li key={term}>{t(`landing.guarantees.${term}`)}</li>
          ))}
        </ul>
      </div>
    </section>
  );
}
