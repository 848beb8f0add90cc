import { getFormProps, useForm } from "@conform-to/react";
import { Form, useNavigation } from "@remix-run/react";
import { Field } from "~/components/field";
import type { GateReply } from "~/modules/auth/password-gate.server";
import { useTranslation } from "~/components/i18n/i18n-context";

interface PasswordGateProps {
  titleKey: string;
  reply?: GateReply;
  redirectTo: string;
}

/**
 * The shared-password gate of the back-office and the packer station: one field, one button. The
 * gate's answer is its only news, so it is announced (`alert`). Nothing is checked in the browser:
 * an empty password is a wrong one, and only the server knows.
 */
export function PasswordGate({ titleKey, reply, redirectTo }: PasswordGateProps) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const [form, fields] = useForm({ id: "gate-form", lastResult: reply });
  return (
    <section className="gate">
      <h1>{t(titleKey)}</h1>
      <Form method="post" className="stack" {...getFormProps(form)}>
        <input type="hidden" name="redirectTo" value={redirectTo} />
        <Field field={fields.password} id="gate-password" errorId="gate-error" alert label="gate.password" type="password" control={{ autoComplete: "current-password", required: true, autoFocus: true }} />
        <button type="submit" className="button" disabled={busy}>
          {t("gate.submit")}
        </button>
      </Form>
    </section>
  );
}
