import { Form } from "@remix-run/react";
import { useTranslation } from "~/components/i18n/i18n-context";

/**
 * "No files on this device" (customer-side §7): a sign-in link to the order's e-mail that opens
 * this order on the device where the models are. A plain form; works without JavaScript.
 */
export function AnotherDevicePanel({ orderId, email }: { orderId: string; email: string | null }) {
  const { t } = useTranslation();
  return (
    <section className="card another-device" aria-labelledby="another-device-title">
      <h3 id="another-device-title">{t("uploads.device.title")}</h3>
      <p className="small">{email ? t("uploads.device.text", { email }) : t("uploads.device.noEmail")}</p>
      {email ? (
        <Form method="post" action="/uploads/continue" reloadDocument>
          <input type="hidden" name="orderId" value={orderId} />
          <button type="submit" className="button button-secondary button-small">
            {t("uploads.device.button")}
          </button>
        </Form>
      ) : null}
    </section>
  );
}
