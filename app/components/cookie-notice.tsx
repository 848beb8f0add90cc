import { Form, useLocation } from "@remix-run/react";
import { useTranslation } from "~/components/i18n/i18n-context";

/** The cookie notice; the international market's names the partner cookie's opt-in (ADR 044). */
export function CookieNotice({ international }: { international: boolean }) {
  const { t } = useTranslation();
  const location = useLocation();
  return (
    <div className="cookie-notice" role="region" aria-label={t("cookies.label")}>
      <p>
        {t(international ? "cookies.textInternational" : "cookies.text")} <a href="/privacy#cookies">{t("cookies.details")}</a>
      </p>
      <Form method="post" action="/cookies" reloadDocument>
        <input type="hidden" name="redirectTo" value={`${location.pathname}${location.search}`} />
        <button type="submit" className="button button-small">
          {t("cookies.accept")}
        </button>
      </Form>
    </div>
  );
}
