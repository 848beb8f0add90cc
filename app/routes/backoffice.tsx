import type { LoaderFunctionArgs } from "@remix-run/node";
import { Form, NavLink, Outlet, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/components/i18n/i18n-context";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { loadBackofficeLayout } from "~/modules/backoffice/layout-page.server";

export async function loader(args: LoaderFunctionArgs) {
  return loadBackofficeLayout(args);
}

/**
 * The back-office shell: the tabs once, rendered twice — a bar on wide screens and, below 768 px,
 * a menu that opens as a <details> element, so it works without JavaScript.
 */
export default function BackofficeLayout() {
  const { role, email } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const tabs = (
    <>
      <NavLink to="/backoffice" end>
        {t("backoffice.tabs.orders")}
      </NavLink>
      <NavLink to="/backoffice/ftp">{t("ftp.tab")}</NavLink>
      <NavLink to="/backoffice/clients">{t("bo.tabs.clients")}</NavLink>
      <NavLink to="/backoffice/affiliates">{t("partners.tab")}</NavLink>
      <NavLink to="/backoffice/translate">{t("translations.tab")}</NavLink>
      {role === "admin" ? <NavLink to="/backoffice/roles">{t("bo.tabs.roles")}</NavLink> : null}
      {role === "admin" ? <NavLink to="/backoffice/erasures">{t("bo.tabs.erasures")}</NavLink> : null}
    </>
  );
  return (
    <div className="backoffice">
      <header className="backoffice-header">
        <div className="container header-row">
          <strong className="brand">{t("backoffice.title")}</strong>
          <nav className="tabs bo-tabs" aria-label={t("backoffice.navigation")}>
            {tabs}
          </nav>
          <span className="muted small bo-who">{email ?? t("backoffice.viaPassword")}</span>
          {/* Every way in has its way out: the password's pass and the e-mail sign-in both end here. */}
          <Form method="post" action="/backoffice/logout">
            <button type="submit" className="link-button">
              {t("backoffice.signOut")}
            </button>
          </Form>
          <details className="mobile-menu bo-menu">
            <summary aria-label={t("bo.menu")}>
              <span aria-hidden="true">☰</span> <span className="bo-menu-label">{t("bo.menu")}</span>
            </summary>
            <nav className="mobile-nav" aria-label={t("backoffice.navigation")}>
              {tabs}
            </nav>
          </details>
        </div>
      </header>
      <div className="container">
        <Outlet />
      </div>
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
