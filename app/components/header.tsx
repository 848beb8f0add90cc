import { Form, Link, useLocation } from "@remix-run/react";
import { useTranslation } from "~/components/i18n/i18n-context";
import { LanguagePicker } from "./language-picker";

interface HeaderProps {
  user: { email: string; hasPartnerCode: boolean } | null;
  locale: string;
}

export function Header({ user, locale }: HeaderProps) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const inCabinet = pathname.startsWith("/cabinet");
  const nav = (
    <>
      {user?.hasPartnerCode ? <Link to="/partner">{t("header.partner")}</Link> : null}
      {inCabinet ? (
        // Starts a fresh order, as the cabinet's own button does (one POST: DESIGN §4.9).
        <Form method="post" action="/order/new" reloadDocument className="inline-form">
          <button type="submit" className="link-button">
            {t("header.newOrder")}
          </button>
        </Form>
      ) : null}
      {user ? <Link to="/cabinet">{t("header.cabinet")}</Link> : <Link to="/auth">{t("header.signIn")}</Link>}
      {inCabinet && user ? (
        <Form method="post" action="/auth/sign-out" className="inline-form">
          <button type="submit" className="link-button">
            {t("header.signOut")}
          </button>
        </Form>
      ) : null}
    </>
  );
  return (
    <header className="site-header">
      <div className="container header-row">
        <Link to={locale === "ru" ? "/" : `/${locale}`} className="brand" aria-label={t("shell.homeLink", { brand: t("shell.brand") })}>
          <svg viewBox="0 0 32 32" width="28" height="28" aria-hidden="true">
            <path d="M6 12c0-4 4-7 10-7s10 3 10 7-2 13-5 13c-2 0-3-5-5-5s-3 5-5 5c-3 0-5-9-5-13z" fill="currentColor" />
          </svg>
          <span>{t("shell.brand")}</span>
        </Link>
        <nav className="header-nav" aria-label={t("header.navigation")}>
          {nav}
        </nav>
        <LanguagePicker locale={locale} />
        <details className="mobile-menu">
          <summary aria-label={t("header.menu")}>
            <span aria-hidden="true">☰</span>
          </summary>
          <nav className="mobile-nav" aria-label={t("header.navigation")}>
            {nav}
          </nav>
        </details>
      </div>
    </header>
  );
}
