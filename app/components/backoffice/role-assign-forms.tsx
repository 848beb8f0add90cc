import { getFormProps, useForm } from "@conform-to/react";
import { Form } from "@remix-run/react";
import { Field } from "~/components/field";
import { ROLES } from "~/modules/backoffice/roles";
import type { RolesReply } from "~/modules/backoffice/roles-page.server";
import { useTranslation } from "~/components/i18n/i18n-context";
import { useBrowserCheck } from "~/modules/validation/browser";
import { replyFor } from "~/modules/validation/reply";

const roleForms = () => import("~/modules/backoffice/roles-forms");

/**
 * The one role form (staff side §4 "Roles", ADR 069): an address and a role. The address field
 * suggests staff and past staff (a `<datalist>`: the browser offers them as one types, and any
 * address can still be typed) — never every customer.
 */
export function RoleAssignForm({ suggestions, reply, busy }: { suggestions: Array<{ email: string; current: boolean }>; reply: RolesReply | undefined; busy: boolean }) {
  const { t } = useTranslation();
  const check = useBrowserCheck(roleForms, (forms) => forms.assignByEmailSchema);
  const [form, fields] = useForm({ id: "roles-email-form", lastResult: replyFor(reply, { intent: "assign_email" }), onValidate: check.onValidate });
  return (
    <Form method="post" className="card stack bo-role-form" aria-labelledby="roles-by-email" {...getFormProps(form)} onFocus={check.warm}>
      <h2 id="roles-by-email">{t("bo.roles.byEmail")}</h2>
      <input type="hidden" name="intent" value="assign_email" />
      <Field field={fields.email} id="roles-email" label="bo.roles.email" hint="bo.roles.emailHint" type="email" control={{ autoComplete: "off", list: "roles-staff-emails" }} />
      <datalist id="roles-staff-emails">
        {suggestions.map((suggestion) => (
          <option key={suggestion.email} value={suggestion.email}>
            {suggestion.current ? t("bo.roles.suggestionStaff") : t("bo.roles.suggestionPast")}
          </option>
        ))}
      </datalist>
      <Field
        field={fields.role}
        id="roles-email-role"
        label="bo.roles.role"
        options={
          <>
            <option value="">{t("bo.roles.chooseRole")}</option>
            {ROLES.map((role) => (
              <option key={role} value={role}>
                {t(`bo.roles.labels.${role}`)}
              </option>
            ))}
          </>
        }
      />
      <div>
        <button type="submit" className="button button-small" disabled={busy}>
          {t("bo.roles.assign")}
        </button>
      </div>
    </Form>
  );
}
