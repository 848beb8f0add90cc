import { Link } from "@remix-run/react";
import { useTranslation } from "~/components/i18n/i18n-context";

/**
 * How staff get into the back office (ADR 069), said where they are refused — under the password
 * gate and on a "Доступ запрещён" page: staff sign in with their own address on the sign-in page,
 * and an administrator grants roles on the roles page. Someone already signed in is told that
 * their address has no staff role (the sign-in page would only bring them back here). A refusal says
 * why first: a page for administrators, or an act recorded under a person's name that the shared
 * password cannot do (ADR 083).
 */
export function StaffAccess({ signedInAs, redirectTo = "/backoffice", refusal }: { signedInAs: string | null; redirectTo?: string; refusal?: "adminOnly" | "signedInOnly" }) {
  const { t } = useTranslation();
  const adminOnly = refusal === "adminOnly";
  return (
    <section className="card stack staff-access" aria-labelledby="staff-access-title">
      <h2 id="staff-access-title">{t("bo.access.title")}</h2>
      {refusal ? <p>{t(`bo.access.${refusal}`)}</p> : null}
      {signedInAs ? (
        adminOnly ? null : <p>{t("bo.access.signedInNoRole", { email: signedInAs })}</p>
      ) : (
        <>
          <p>{t("bo.access.ownAddress")}</p>
          <p>
            <Link className="button button-secondary" to={`/auth?redirectTo=${encodeURIComponent(redirectTo)}`}>
              {t("bo.access.signIn")}
            </Link>
          </p>
        </>
      )}
      <p>{t("bo.access.roles")}</p>
    </section>
  );
}
