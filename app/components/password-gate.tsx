import { Form, useNavigation } from "@remix-run/react";
import { useTranslation } from "~/modules/i18n/i18n-context";

interface PasswordGateProps {
  titleKey: string;
  error?: string;
  redirectTo: string;
}

/** The shared-password gate of the back-office and the packer station: one field, one button. */
export function PasswordGate({ titleKey, error, redirectTo }: PasswordGateProps) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  return (
    <section className="gate">
      <h1>{t(titleKey)}</h1>
      <Form method="post" className="stack" noValidate>
        <input type="hidden" name="redirectTo" value={redirectTo} />
        <label htmlFor="gate-password">{t("gate.password")}</label>
        <input
          id="gate-password"
          name="password"
          type="password"
          autoComplete="current-password"
          required
          autoFocus
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? "gate-error" : undefined}
        />
        {error ? (
          <p id="gate-error" className="field-error" role="alert">
            {t(error)}
          </p>
        ) : null}
        <button type="submit" className="button" disabled={busy}>
          {t("gate.submit")}
        </button>
      </Form>
    </section>
  );
}
