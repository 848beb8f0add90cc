import { getFormProps, useForm } from "@conform-to/react";
import { Form } from "@remix-run/react";
import { Field } from "~/components/field";
import { SectionError } from "~/components/section-error";
import { useTranslation } from "~/components/i18n/i18n-context";
import type { PartnerReply } from "~/modules/partners/partner-page.server";
import { useBrowserCheck } from "~/modules/validation/browser";
import { replyFor } from "~/modules/validation/reply";

const partnerForms = () => import("~/modules/partners/forms");

/** The partner's name, which the partner link waits for (partners spec §2 "/partner"). */
export function PartnerNameForm({ name, reply, busy }: { name: string | null; reply: PartnerReply | undefined; busy: boolean }) {
  const { t } = useTranslation();
  const own = replyFor(reply, { intent: "name" });
  const { onValidate, warm } = useBrowserCheck(partnerForms, (forms) => forms.nameSchema);
  const [form, fields] = useForm({
    id: "partner-name-form",
    lastResult: own,
    defaultValue: { user_name: name ?? "" },
    onValidate,
  });
  return (
    <Form method="post" className="stack" {...getFormProps(form)} onFocus={warm}>
      <input type="hidden" name="intent" value="name" />
      {own?.failure ? <SectionError failure={own.failure} /> : null}
      <Field field={fields.user_name} id="partner-name" label="partners.code.nameLabel" control={{ autoComplete: "organization" }} />
      <div>
        <button type="submit" className="button button-small" disabled={busy}>
          {t("partners.code.nameSave")}
        </button>
      </div>
    </Form>
  );
}
