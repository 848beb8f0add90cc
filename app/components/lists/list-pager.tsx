import { Link, useLocation } from "@remix-run/react";
import { useTranslation } from "~/components/i18n/i18n-context";
import { numberFormat } from "~/modules/i18n/intl";
import { listHref } from "~/modules/http/request/list-query";

/**
 * The list kit's pager (ADR 067): "21–30 из 240 · страниц: 24" when the list knows its (capped)
 * total, and links back, forward and to the start that keep the rest of the address. A keyset list
 * passes the cursors of its first and last rows: "forward" carries `after=` the last, "back"
 * `before=` the first, and the page number only names the page. A numbered list passes none.
 */
export interface PagerProps {
  page: number;
  pageSize: number;
  /** Rows on this page. */
  shown: number;
  /** Rows in the list, counted up to `cap` (more shows as "cap+"); null when not counted. */
  total: number | null;
  cap?: number;
  hasMore: boolean;
  /** Keyset lists: where the next page starts (after the last row) and the previous ends (before the first). */
  cursors?: { next: string | null; previous: string | null };
  /** Names the navigation for screen readers. */
  label?: string;
  className?: string;
  /** Only the "21–30 из 240" line (above a list whose links are below it). */
  summaryOnly?: boolean;
  /** Names of the address that paging drops (an opened dialog stays on its page). */
  without?: string[];
}

export function ListPager({
  page,
  pageSize,
  shown,
  total,
  cap,
  hasMore,
  cursors,
  label,
  className,
  summaryOnly,
  without = [],
}: PagerProps) {
  const { t, i18n } = useTranslation();
  const { pathname, search } = useLocation();
  const numbers = numberFormat(i18n.language);
  const capped = cap !== undefined && total !== null && total > cap;
  const first = (page - 1) * pageSize + 1;
  const summary =
    total !== null && shown > 0
      ? t("pagination.shown", {
          first: numbers.format(first),
          last: numbers.format(first + shown - 1),
          total: capped ? `${numbers.format(cap)}+` : numbers.format(total),
          pages: capped
            ? `${numbers.format(Math.ceil(cap / pageSize))}+`
            : numbers.format(Math.max(1, Math.ceil(total / pageSize))),
        })
      : null;
  const at = (n: number, cursor: Record<string, string | null>) =>
    listHref(pathname, search, {
      page: n > 1 ? String(n) : null,
      after: null,
      before: null,
      ...Object.fromEntries(without.map((name) => [name, null])),
      ...(n > 1 ? cursor : {}),
    });
  const previous =
    page <= 1
      ? null
      : cursors
      ? page === 2 || cursors.previous
        ? at(page - 1, { before: cursors.previous })
        : null
      : at(page - 1, {});
  const next = !hasMore
    ? null
    : cursors
    ? cursors.next
      ? at(page + 1, { after: cursors.next })
      : null
    : at(page + 1, {});
  if (summaryOnly)
    return summary ? (
      <p
        className={`muted small list-pager-summary${
          className ? ` ${className}` : ""
        }`}
      >
        {summary}
      </p>
    ) : (
      <span />
    );
  if (!summary && !previous && !next) return null;
  return (
    <nav
      className={`pagination list-pager${className ? ` ${className}` : ""}`}
      aria-label={label ?? t("pagination.label")}
    >
      {summary ? (
        <span className="list-pager-summary">{summary}</span>
      ) : (
        <span>{t("pagination.page", { page })}</span>
      )}
      <span className="list-pager-links">
        {page > 2 && cursors ? (
          <Link to={at(1, {})}>{t("pagination.first")}</Link>
        ) : null}
        {previous ? (
          <Link to={previous} rel="prev">
            {t("pagination.previous")}
          </Link>
        ) : null}
        {next ? (
          <Link to={next} rel="next">
            {t("pagination.next")}
          </Link>
        ) : null}
      </span>
    </nav>
  );
}
