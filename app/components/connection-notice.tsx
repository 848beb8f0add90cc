import { useSyncExternalStore } from "react";
import { connectionState, resendNow, subscribeConnection } from "~/modules/http/forms/idempotency-fetch";
import { useTranslation } from "~/components/i18n/i18n-context";

const NOBODY_WAITS = () => 0;

/**
 * "No connection": shown while a request of the page waits for the network (ADR 046), over the page,
 * which stays as it was with what was typed. The request goes again by itself; the button sends it now.
 */
export function ConnectionNotice() {
  const waiting = useSyncExternalStore(subscribeConnection, () => connectionState().waiting, NOBODY_WAITS);
  const { t } = useTranslation();
  if (waiting === 0) return null;
  return (
    <div className="connection-notice" role="alert">
      <div>
        <strong>{t("connection.title")}</strong>
        <p>{t("connection.text")}</p>
      </div>
      <button type="button" className="button button-secondary" onClick={resendNow}>
        {t("connection.retry")}
      </button>
    </div>
  );
}
