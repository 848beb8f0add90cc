import { Form } from "@remix-run/react";
import { useTranslation } from "~/components/i18n/i18n-context";

/**
 * A signed-in user without a partner code yet: the code is made by this button's post (ADR 083),
 * never by opening the page, so a link from another site cannot make one. A plain form: it works
 * without JavaScript, and the page it leads back to shows the code.
 */
export function PartnerCodeOffer({ busy }: { busy: boolean }) {
  const { t } = useTranslation();
  return (
    <section className="card stack" aria-labelledby="partner-code-title">
      <h2 id="partner-code-title">{t("partners.code.title")}</h2>
      <p>{t("partners.code.offerText")}</p>
      <Form method="post">
        <input type="hidden" name="intent" value="create" />
        <button type="submit" className="button" disabled={busy}>
          {t("partners.code.create")}
        </button>
      </Form>
    </section>
  );
}
