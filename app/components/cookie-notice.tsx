import { Form, useLocation } from "@remix-run/react";
import { useTranslation } from "~/modules/i18n/i18n-context";

export function CookieNotice() {
  const { t } = useTranslation();
  const location = useLocation();
  return (
    <div className="cookie-notice" role="region" aria-label={t("cookies.label")}>
      <p>
        {t("cookies.text")} <a href="/privacy#cookies">{t("cookies.details")}</a>
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
