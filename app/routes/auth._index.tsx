import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { SectionError } from "~/components/section-error";
import { FieldError } from "~/components/wizard/fields";
import { useTranslation } from "~/modules/i18n/i18n-context";
import { loadSignInPage, signInPageAction } from "~/modules/auth/sign-in-page.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }, { name: "robots", content: "noindex" }];

/**
 * Sign-in (DESIGN §4.23): the e-mail form sends a link and a code through the authenticator's
 * "email-link" strategy; the code form signs in through its "code" strategy.
 */
export async function loader(args: LoaderFunctionArgs) {
  return loadSignInPage(args);
}

export async function action(args: ActionFunctionArgs) {
  return signInPageAction(args);
}

/** A link that could not be sent is said with its title (ADR 026). */
const SEND_FAILED = "auth.toasts.sendFailedText";

export default function SignIn() {
  const loaded = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const errors = (actionData?.errors ?? {}) as Record<string, string>;
  // A refused code keeps the code form, for the e-mail it was typed for.
  const sentTo = loaded.sentTo ?? (errors.code && actionData && "email" in actionData ? String(actionData.email) : null);
  const { redirectTo } = loaded;
  const navigation = useNavigation();
  const { t } = useTranslation();
  const sending = navigation.state === "submitting";
  return (
    <section className="gate auth">
      <h1>{t("auth.title")}</h1>
      {errors.email === SEND_FAILED ? (
        <SectionError
          failure={{
            title: "auth.toasts.sendFailedTitle",
            message: SEND_FAILED,
          }}
        />
      ) : null}
      {sentTo ? (
        <div className="stack">
          <p role="status">
            <strong>{t("auth.sentTitle")}</strong> {t("auth.sentText", { email: sentTo })}
          </p>
          <Form method="post" className="stack" noValidate>
            <input type="hidden" name="intent" value="code" />
            <input type="hidden" name="email" value={sentTo} />
            <input type="hidden" name="redirectTo" value={redirectTo} />
            <label htmlFor="auth-code">{t("auth.codeLabel")}</label>
            <input
              id="auth-code"
              name="code"
              inputMode="numeric"
              autoComplete="one-time-code"
              pattern="[0-9]{6}"
              maxLength={6}
              aria-invalid={errors.code ? true : undefined}
              aria-describedby={errors.code ? "auth-code-error" : undefined}
            />
            <FieldError id="auth-code" error={errors.code} />
            <button type="submit" className="button" disabled={sending}>
              {t("auth.signInWithCode")}
            </button>
          </Form>
          <Form method="post" className="stack">
            <input type="hidden" name="email" value={sentTo} />
            <input type="hidden" name="redirectTo" value={redirectTo} />
            <button type="submit" className="button button-secondary" disabled={sending}>
              {t("auth.sendAgain")}
            </button>
          </Form>
        </div>
      ) : (
        <Form method="post" className="stack" noValidate>
          <p className="muted">{t("auth.intro")}</p>
          <input type="hidden" name="redirectTo" value={redirectTo} />
          <label htmlFor="auth-email">{t("auth.emailLabel")}</label>
          <input
            id="auth-email"
            name="email"
            type="email"
            autoComplete="email"
            required
            defaultValue={actionData && "email" in actionData ? actionData.email : undefined}
            aria-invalid={errors.email ? true : undefined}
            aria-describedby={errors.email ? "auth-email-error" : undefined}
          />
          <FieldError id="auth-email" error={errors.email === SEND_FAILED ? undefined : errors.email} />
          <button type="submit" className="button" disabled={sending} aria-busy={sending || undefined}>
            {sending ? t("auth.sending") : t("auth.sendLink")}
          </button>
        </Form>
      )}
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
