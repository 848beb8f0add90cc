import { useTranslation } from "~/components/i18n/i18n-context";
import { HeroArt } from "./illustrations";
import { OrderButton } from "./order-button";

const FACTS = ["speed", "precision", "packaging"] as const;

export function Hero() {
  const { t } = useTranslation();
  return (
    <section className="hero" aria-labelledby="hero-title">
      <div className="container hero-grid">
        <div>
          <p className="eyebrow">{t("home.eyebrow")}</p>
          <h1 id="hero-title">{t("home.title")}</h1>
          <p className="lead">{t("home.lead")}</p>
          <div className="actions">
            <OrderButton>{t("home.orderCta")}</OrderButton>
            <a className="button button-secondary" href="#pricing">
              {t("landing.pricesLink")}
            </a>
          </div>
        </div>
        <HeroArt label={t("home.artLabel")} />
      </div>
      <ul className="container facts" aria-label={t("home.claimsLabel")}>
        {FACTS.map((fact) => (
          <li key={fact} className="fact">
            <strong>{t(`home.claims.${fact}.title`)}</strong>
            <span>{t(`home.claims.${fact}.text`)}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
