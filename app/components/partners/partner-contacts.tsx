import { getFormProps, useForm } from "@conform-to/react";
import { Form, Link } from "@remix-run/react";
import type { SerializeFrom } from "@remix-run/node";
import { Field } from "~/components/field";
import { useTranslation } from "~/components/i18n/i18n-context";
import { formatDate } from "~/modules/partners/format";
import { contactsSummary } from "~/modules/partners/page-helpers";
import type { loadPartnerPage, PartnerReply } from "~/modules/partners/partner-page.server";
import { useBrowserCheck } from "~/modules/validation/browser";
import { replyFor } from "~/modules/validation/reply";

const partnerForms = () => import("~/modules/partners/forms");

type PartnerView = NonNullable<SerializeFrom<typeof loadPartnerPage>["partner"]>;

/** The partner's payout contacts and the offer's acceptance (partners spec §2). */
export function PartnerContacts({ view, reply, busy }: { view: PartnerView; reply: PartnerReply | undefined; busy: boolean }) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const offerAccepted = view.offerAcceptedAt !== null;
  const { onValidate, warm } = useBrowserCheck(partnerForms, (forms) => forms.contactsSchema(offerAccepted));
  const [form, fields] = useForm({
    id: "partner-contacts-form",
    lastResult: replyFor(reply, { intent: "contacts" }),
    defaultValue: { contact_email: view.contactEmail, contact_phone: view.contactPhone },
    onValidate,
  });
  const summary = contactsSummary(form.allErrors);
  return (
    <section className="card stack" aria-labelledby="partner-contacts-title" id="partner-contacts">
      <h2 id="partner-contacts-title">{t("partners.contacts.title")}</h2>
      <Form method="post" className="stack" {...getFormProps(form)} onFocus={warm}>
        <input type="hidden" name="intent" value="contacts" />
        {summary ? (
          <p className="field-error" role="alert">
            <strong>{t(summary)}</strong>
          </p>
        ) : null}
        <Field field={fields.contact_email} id="partner-contact-email" label="partners.contacts.email" type="email" control={{ autoComplete: "email" }} />
        <Field field={fields.contact_phone} id="partner-contact-phone" label="partners.contacts.phone" type="tel" control={{ autoComplete: "tel" }} />
        {view.offerAcceptedAt ? (
          <p className="hint">
            {t("partners.contacts.offerAccepted", {
              date: formatDate(view.offerAcceptedAt, language),
            })}{" "}
            <Link to="/refdoc">{t("partners.contacts.offerDocument")}</Link>
          </p>
        ) : (
          <Field
            field={fields.offer}
            id="partner-offer"
            type="checkbox"
            label={
              <>
                {t("partners.contacts.offer")} <Link to="/refdoc">{t("partners.contacts.offerLink")}</Link>
              </>
            }
          />
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
