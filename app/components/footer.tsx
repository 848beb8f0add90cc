import { Link } from "@remix-run/react";
import { useTranslation } from "~/components/i18n/i18n-context";

interface FooterProps {
  contacts: { supportEmail: string; whatsappNumber: string; messengerLink: string };
  legalLinks: boolean;
  /** The international market's Impressum (§ 5 DDG, ADR 076). */
  impressum: boolean;
}

export function Footer({ contacts, legalLinks, impressum }: FooterProps) {
  const { t } = useTranslation();
  return (
    <footer className="site-footer" id="contacts">
      <div className="container footer-grid">
        <section>
          <h2>{t("footer.contacts")}</h2>
          <p>
            {t("footer.support")}: <a href={`mailto:${contacts.supportEmail}`}>{contacts.supportEmail}</a>
          </p>
          <p>
            WhatsApp: <a href={contacts.messengerLink}>{contacts.whatsappNumber}</a>
          </p>
        </section>
        <section>
          <h2>{t("footer.about")}</h2>
          <p>{t("footer.aboutText")}</p>
        </section>
        <nav aria-label={t("footer.documents")}>
          <h2>{t("footer.documents")}</h2>
          <ul className="plain-list">
            <li>
              <Link to="/privacy">{t("footer.privacy")}</Link>
            </li>
            <li>
              <Link to="/terms">{t("footer.terms")}</Link>
            </li>
            {legalLinks ? (
              <>
                <li>
                  <Link to="/public-offer">{t("footer.publicOffer")}</Link>
                </li>
                <li>
                  <Link to="/data-consent">{t("footer.dataConsent")}</Link>
                </li>
              </>
            ) : null}
            {impressum ? (
              <li>
                <Link to="/impressum">{t("footer.impressum")}</Link>
              </li>
            ) : null}
          </ul>
        </nav>
      </div>
      <p className="container copyright">{t("footer.copyright", { year: new Date().getFullYear() })}</p>
    </footer>
  );
}
