import { Form, useLocation } from "@remix-run/react";
import { useTranslation } from "~/components/i18n/i18n-context";

/**
 * A partner link on the international market (ADR 044): the partner is credited only if the
 * visitor allows the 30-day partner cookie. Declining needs no answer — nothing is set.
 */
export function PartnerConsent({ code }: { code: string }) {
  const { t } = useTranslation();
  const location = useLocation();
  return (
    <aside className="partner-consent" aria-labelledby="partner-consent-title">
      <div className="container">
        {/* Above the page's h1: a labelled landmark, not a heading. */}
        <p>
          <strong id="partner-consent-title">{t("cookies.partner.title")}</strong> {t("cookies.partner.text", { code })}
        </p>
        <Form method="post" action="/cookies" reloadDocument>
          <input type="hidden" name="intent" value="partner" />
          <input type="hidden" name="partner" value={code} />
          <input type="hidden" name="redirectTo" value={`${location.pathname}${location.search}`} />
          <button type="submit" className="button button-small">
            {t("cookies.partner.accept")}
          </button>{" "}
          <a href="/privacy#cookies">{t("cookies.details")}</a>
        </Form>
      </div>
    </aside>
  );
}
