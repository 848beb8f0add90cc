import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { SectionError } from "~/components/section-error";
import { FieldError } from "~/components/wizard/fields";
import { completeSignIn, sendSignInLink, signInWithCode } from "~/modules/auth/authenticator.server";
import { safeRedirect } from "~/modules/auth/guards.server";
import { getSessionUser } from "~/modules/auth/session.server";
import { clientIp, readFormData } from "~/modules/http/request.server";
import { redirectWithToast } from "~/modules/http/toast.server";
import { getTranslator } from "~/modules/i18n/i18n.server";
import { useTranslation } from "~/modules/i18n/i18n-context";
import { isEmail } from "~/modules/wizard/validation";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }, { name: "robots", content: "noindex" }];

/**
 * Sign-in (DESIGN §4.23): the e-mail form sends a link and a code through the authenticator's
 * "email-link" strategy; the code form signs in through its "code" strategy.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const redirectTo = safeRedirect(url.searchParams.get("redirectTo"), "/cabinet");
  if (await getSessionUser(request)) throw redirect(redirectTo);
  const { t } = await getTranslator(request);
  return {
    title: t("auth.title"),
    sentTo: url.searchParams.get("sent"),
    redirectTo,
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await readFormData(request);
  const email = String(form.get("email") ?? "").trim().toLowerCase();
  const redirectTo = safeRedirect(form.get("redirectTo"), "/cabinet");

  if (form.get("intent") === "code") {
    const signedIn = await signInWithCode(request, { email, code: String(form.get("code") ?? "").trim() });
    // Said at the code field, which the page shows again for this e-mail wherever the code came from.
    if (!signedIn) return data({ errors: { code: "auth.errors.badCode" }, email }, { status: 400 });
    const cookie = await completeSignIn(request, signedIn, clientIp(request, context));
    return redirect(safeRedirect(signedIn.redirectTo, redirectTo), { headers: { "Set-Cookie": cookie } });
  }

  if (!email) return data({ errors: { email: "auth.errors.emailRequired" }, email }, { status: 400 });
  if (!isEmail(email)) return data({ errors: { email: "auth.errors.emailInvalid" }, email }, { status: 400 });
  const { language } = await getTranslator(request);
  const result = await sendSignInLink(request, { email, redirectTo, language, clientIp: clientIp(request, context) });
  if (!result.ok) {
    const description = result.reason === "rate_limited" ? "auth.errors.rateLimited" : "auth.toasts.sendFailedText";
    return data({ errors: { email: description }, email }, { status: result.reason === "rate_limited" ? 429 : 502 });
  }
  const params = new URLSearchParams({ sent: email, redirectTo });
  return redirectWithToast(
    `/auth?${params}`,
    { type: "success", title: "auth.toasts.sentTitle", description: "auth.toasts.sentText" },
    { headers: result.setCookie ? { "Set-Cookie": result.setCookie } : undefined },
  );
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
