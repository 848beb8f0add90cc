import { getFormProps, useForm } from "@conform-to/react";
import { Form } from "@remix-run/react";
import { Field } from "~/components/field";
import { ROLES } from "~/modules/backoffice/roles";
import type { RolesReply } from "~/modules/backoffice/roles-page.server";
import { useTranslation } from "~/modules/i18n/i18n-context";
import { useBrowserCheck } from "~/modules/validation/browser";
import { replyFor } from "~/modules/validation/reply";

const roleForms = () => import("~/modules/backoffice/roles-forms");

/** Assigning a role by e-mail or to a user from the list (staff side §4 "Roles"). */
export function RoleAssignForms({ users, reply, busy }: { users: Array<{ id: string; email: string }>; reply: RolesReply | undefined; busy: boolean }) {
  const { t } = useTranslation();
  const byEmail = useBrowserCheck(roleForms, (forms) => forms.assignByEmailSchema);
  const byUser = useBrowserCheck(roleForms, (forms) => forms.assignToUserSchema);
  const [emailForm, emailFields] = useForm({ id: "roles-email-form", lastResult: replyFor(reply, { intent: "assign_email" }), onValidate: byEmail.onValidate });
  const [userForm, userFields] = useForm({ id: "roles-user-form", lastResult: replyFor(reply, { intent: "assign_user" }), onValidate: byUser.onValidate });
  const roleOptions = (
    <>
      <option value="">{t("bo.roles.chooseRole")}</option>
      {ROLES.map((role) => (
        <option key={role} value={role}>
          {t(`bo.roles.labels.${role}`)}
        </option>
      ))}
    </>
  );
  const submit = (
    <div>
      <button type="submit" className="button button-small" disabled={busy}>
        {t("bo.roles.assign")}
      </button>
    </div>
  );
  return (
    <div className="bo-columns">
      <Form method="post" className="card stack" aria-labelledby="roles-by-email" {...getFormProps(emailForm)} onFocus={byEmail.warm}>
        <h2 id="roles-by-email">{t("bo.roles.byEmail")}</h2>
        <input type="hidden" name="intent" value="assign_email" />
        <Field field={emailFields.email} id="roles-email" label="bo.roles.email" type="email" control={{ autoComplete: "off" }} />
        <Field field={emailFields.role} id="roles-email-role" label="bo.roles.role" options={roleOptions} />
        {submit}
      </Form>
      <Form method="post" className="card stack" aria-labelledby="roles-by-user" {...getFormProps(userForm)} onFocus={byUser.warm}>
        <h2 id="roles-by-user">{t("bo.roles.byUser")}</h2>
        <input type="hidden" name="intent" value="assign_user" />
        <Field
          field={userFields.userId}
          id="roles-user"
          label="bo.roles.user"
          options={
            <>
              <option value="">{t("bo.roles.chooseUser")}</option>
              {users.map((user) => (
                <option key={user.id} value={user.id}>
                  {user.email}
                </option>
              ))}
            </>
          }
        />
        <Field field={userFields.role} id="roles-user-role" label="bo.roles.role" options={roleOptions} />
        {submit}
      </Form>
    </div>
  );
}
