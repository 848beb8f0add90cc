import { Link, useLocation, useNavigate } from "@remix-run/react";
import { useTranslation } from "~/components/i18n/i18n-context";

/** Small pieces shared by the back-office pages. */

/** Previous/next links that keep the page's other query parameters; nothing when there is one page. */
export function Pagination({ page, hasMore }: { page: number; hasMore: boolean }) {
  const { t } = useTranslation();
  const location = useLocation();
  if (page <= 1 && !hasMore) return null;
  const pageLink = (n: number) => {
    const next = new URLSearchParams(location.search);
    next.delete("client");
    if (n > 1) next.set("page", String(n));
    else next.delete("page");
    const search = next.toString();
    return search ? `?${search}` : location.pathname;
  };
  return (
    <nav className="pagination" aria-label={t("pagination.label")}>
      {page > 1 ? <Link to={pageLink(page - 1)}>{t("pagination.previous")}</Link> : <span />}
      <span>{t("pagination.page", { page })}</span>
      {hasMore ? <Link to={pageLink(page + 1)}>{t("pagination.next")}</Link> : <span />}
    </nav>
  );
}

/**
 * A dialog that works without JavaScript: rendered open by the server when its URL says so, closed
 * by a link. With JavaScript, Escape follows the same link.
 */
export function PageDialog({ titleId, title, closeTo, children, wide }: { titleId: string; title: string; closeTo: string; children: React.ReactNode; wide?: boolean }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <div className="bo-modal">
      <dialog
        open
        aria-modal="true"
        aria-labelledby={titleId}
        className={wide ? "bo-dialog bo-dialog-wide" : "bo-dialog"}
        onKeyDown={(event) => {
          if (event.key === "Escape") navigate(closeTo, { preventScrollReset: true });
        }}
      >
        <header className="bo-dialog-head">
          <h2 id={titleId}>{title}</h2>
          <Link to={closeTo} className="bo-close" preventScrollReset aria-label={t("bo.dialog.close")}>
            ×
          </Link>
        </header>
        {children}
      </dialog>
    </div>
  );
}
