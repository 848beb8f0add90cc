import { Form, Link } from "@remix-run/react";
import type { SerializeFrom } from "@remix-run/node";
import { FieldError } from "~/components/wizard/fields";
import { useTranslation } from "~/modules/i18n/i18n-context";
import { formatDate } from "~/modules/partners/format";
import type { loadPartnerPage, PartnerReply } from "~/modules/partners/partner-page.server";

type PartnerView = NonNullable<SerializeFrom<typeof loadPartnerPage>["partner"]>;

/** The partner's payout contacts and the offer's acceptance (partners spec §2). */
export function PartnerContacts({ view, reply, busy }: { view: PartnerView; reply: PartnerReply | undefined; busy: boolean }) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const contactErrors = reply?.intent === "contacts" ? reply.errors : {};
  const contactValues = reply?.intent === "contacts" ? reply.values : null;
  return (
    <section className="card stack" aria-labelledby="partner-contacts-title" id="partner-contacts">
      <h2 id="partner-contacts-title">{t("partners.contacts.title")}</h2>
      <Form method="post" className="stack" noValidate>
        <input type="hidden" name="intent" value="contacts" />
        {reply?.intent === "contacts" && reply.summary ? (
          <p className="field-error" role="alert">
            <strong>{t(reply.summary)}</strong>
          </p>
        ) : null}
        <div className="field">
          <label htmlFor="partner-contact-email">{t("partners.contacts.email")}</label>
          <input
            id="partner-contact-email"
            name="contact_email"
            type="email"
            autoComplete="email"
            defaultValue={contactValues?.contact_email ?? view.contactEmail}
            aria-invalid={contactErrors.contact_email ? true : undefined}
            aria-describedby={contactErrors.contact_email ? "partner-contact-email-error" : undefined}
          />
          <FieldError id="partner-contact-email" error={contactErrors.contact_email} />
        </div>
        <div className="field">
          <label htmlFor="partner-contact-phone">{t("partners.contacts.phone")}</label>
          <input
            id="partner-contact-phone"
            name="contact_phone"
            type="tel"
            autoComplete="tel"
            defaultValue={contactValues?.contact_phone ?? view.contactPhone}
            aria-invalid={contactErrors.contact_phone ? true : undefined}
            aria-describedby={contactErrors.contact_phone ? "partner-contact-phone-error" : undefined}
          />
          <FieldError id="partner-contact-phone" error={contactErrors.contact_phone} />
        </div>
        {view.offerAcceptedAt ? (
          <p className="hint">
            {t("partners.contacts.offerAccepted", {
              date: formatDate(view.offerAcceptedAt, language),
            })}{" "}
            <Link to="/refdoc">{t("partners.contacts.offerDocument")}</Link>
          </p>
        ) : (
          <div className="field">
            <label className="checkbox" htmlFor="partner-offer">
              <input id="partner-offer" name="offer" type="checkbox" aria-invalid={contactErrors.offer ? true : undefined} aria-describedby={contactErrors.offer ? "partner-offer-error" : undefined} />
              <span>
                {t("partners.contacts.offer")} <Link to="/refdoc">{t("partners.contacts.offerLink")}</Link>
              </span>
            </label>
            <FieldError id="partner-offer" error={contactErrors.offer} />
          </div>
        )}
        <div>
          <button type="submit" className="button button-small" disabled={busy}>
            {t("partners.contacts.save")}
          </button>
        </div>
      </Form>
    </section>
  );
}
