import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { useTranslation } from "~/components/i18n/i18n-context";
import { loadVerifyPage, verifyPageAction } from "~/modules/auth/verify-page.server";

export const meta: MetaFunction = () => [{ title: "Aligner Lab" }, { name: "robots", content: "noindex" }];

/**
 * The page a sign-in link opens. GET only shows who is signing in (a mail scanner opening the link
 * changes nothing); the button's POST hands the link to the authenticator's "email-link" strategy,
 * which uses it up, and starts a new session.
 */
export async function loader(args: LoaderFunctionArgs) {
  return loadVerifyPage(args);
}

export async function action(args: ActionFunctionArgs) {
  return verifyPageAction(args);
}

export default function VerifySignIn() {
  const { email, token } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  return (
    <section className="gate auth">
      <h1>{t("auth.confirmTitle")}</h1>
      {email ? (
        <Form method="post" className="stack">
          <input type="hidden" name="token" value={token} />
          <p>{t("auth.confirmText", { email })}</p>
          <button type="submit" className="button">
            {t("auth.confirmButton")}
          </button>
        </Form>
      ) : (
        <div className="stack">
          <p role="alert">{t("auth.linkInvalid")}</p>
          <Link to="/auth" className="button">
            {t("auth.requestNew")}
          </Link>
        </div>
      )}
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
