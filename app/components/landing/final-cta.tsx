import { useTranslation } from "~/components/i18n/i18n-context";
import { OrderButton } from "./order-button";

export function FinalCta({ messengerLink }: { messengerLink: string }) {
  const { t } = useTranslation();
  return (
    <section className="final-cta" aria-labelledby="cta-title">
      <div className="container final-cta-inner">
        <h2 id="cta-title">{t("landing.cta.title")}</h2>
        {/* Shorter on phones: one of the two is shown, never both (the other is display: none). */}
        <p className="cta-long">{t("landing.cta.text")}</p>
        <p className="cta-short">{t("landing.cta.textShort")}</p>
        <div className="actions">
          <OrderButton>{t("home.orderCta")}</OrderButton>
          <a className="button button-on-dark" href={messengerLink} target="_blank" rel="noopener noreferrer">
            {t("landing.cta.contact")}
          </a>
        </div>
      </div>
    </section>
  );
}
