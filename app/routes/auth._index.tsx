import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { getFormProps, useForm } from "@conform-to/react";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { SectionError } from "~/components/section-error";
import { Field } from "~/components/field";
import { useTranslation } from "~/components/i18n/i18n-context";
import { loadSignInPage, signInPageAction, type SignInReply } from "~/modules/auth/sign-in-page.server";
import { useBrowserCheck } from "~/modules/validation/browser";
import { replyFor } from "~/modules/validation/reply";
import { refusalHeaders } from "~/modules/http/answers/route-headers";

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

/** A refusal's Retry-After reaches the answer (ADR 056). */
export const headers = refusalHeaders;

const signInForms = () => import("~/modules/auth/forms");

export default function SignIn() {
  const loaded = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>() as SignInReply | undefined;
  const codeReply = replyFor(reply, { intent: "code" });
  const linkReply = codeReply ? undefined : reply;
  // A refused code keeps the code form, for the e-mail it was typed for.
  const typedFor = codeReply?.initialValue?.email;
  const sentTo = loaded.sentTo ?? (typeof typedFor === "string" ? typedFor.trim().toLowerCase() : null);
  const { redirectTo } = loaded;
  const navigation = useNavigation();
  const { t } = useTranslation();
  const sending = navigation.state === "submitting";
  const linkCheck = useBrowserCheck(signInForms, (forms) => forms.signInLinkSchema);
  const codeCheck = useBrowserCheck(signInForms, (forms) => forms.typedCodeSchema);
  const [linkForm, linkFields] = useForm({ id: "auth-link-form", lastResult: linkReply, onValidate: linkCheck.onValidate });
  const [codeForm, codeFields] = useForm({ id: "auth-code-form", lastResult: codeReply, onValidate: codeCheck.onValidate });
  return (
    <section className="gate auth">
      <h1>{t("auth.title")}</h1>
      {reply?.failure ? <SectionError failure={reply.failure} /> : null}
      {sentTo ? (
        <div className="stack">
          <p role="status">
            <strong>{t("auth.sentTitle")}</strong> {t("auth.sentText", { email: sentTo })}
          </p>
          <Form method="post" className="stack" {...getFormProps(codeForm)} onFocus={codeCheck.warm}>
            <input type="hidden" name="intent" value="code" />
            <input type="hidden" name="email" value={sentTo} />
            <input type="hidden" name="redirectTo" value={redirectTo} />
            <Field field={codeFields.code} id="auth-code" label="auth.codeLabel" control={{ inputMode: "numeric", autoComplete: "one-time-code", pattern: "[0-9]{6}", maxLength: 6 }} />
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
        <Form method="post" className="stack" {...getFormProps(linkForm)} onFocus={linkCheck.warm}>
          <p className="muted">{t("auth.intro")}</p>
          <input type="hidden" name="redirectTo" value={redirectTo} />
          <Field field={linkFields.email} id="auth-email" label="auth.emailLabel" type="email" control={{ autoComplete: "email", required: true }} />
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
