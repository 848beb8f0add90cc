import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { completeSignIn, readSignInLink, signInWithLink } from "~/modules/auth/authenticator.server";
import { safeRedirect } from "~/modules/auth/guards.server";
import { clientIp, readFormData } from "~/modules/http/request.server";
import { useTranslation } from "~/modules/i18n/i18n-context";

export const meta: MetaFunction = () => [{ title: "Aligner Lab" }, { name: "robots", content: "noindex" }];

/**
 * The page a sign-in link opens. GET only shows who is signing in (a mail scanner opening the link
 * changes nothing); the button's POST hands the link to the authenticator's "email-link" strategy,
 * which uses it up, and starts a new session.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const preview = token ? await readSignInLink(token) : null;
  return { email: preview?.email ?? null, token: preview ? token : "" };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await readFormData(request);
  const signedIn = await signInWithLink(request, String(form.get("token") ?? ""));
  if (!signedIn) return redirect("/auth/verify?token=invalid");
  const cookie = await completeSignIn(request, signedIn, clientIp(request, context));
  return redirect(safeRedirect(signedIn.redirectTo, "/cabinet"), { headers: { "Set-Cookie": cookie } });
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
