import { Link, useLocation } from "@remix-run/react";
import type { ReactNode } from "react";
import { useTranslation } from "~/components/i18n/i18n-context";
import { listHref, type SortDirection } from "~/modules/http/request/list-query";

/**
 * A sortable column's header (ADR 067): a link to the same list sorted by this column, from the
 * first page; on the column already sorted by, the link turns the direction round. `aria-sort` says
 * how the table is sorted now.
 */
export function SortHeader({
  sortKey,
  current,
  dir,
  first,
  className,
  children,
}: {
  sortKey: string;
  current: string | null;
  dir: SortDirection;
  first: SortDirection;
  className?: string;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const { pathname, search } = useLocation();
  const active = current === sortKey;
  const nextDir: SortDirection = active
    ? dir === "asc"
      ? "desc"
      : "asc"
    : first;
  return (
    <th
      scope="col"
      className={className}
      aria-sort={
        active ? (dir === "asc" ? "ascending" : "descending") : undefined
      }
    >
      <Link
        to={listHref(pathname, search, { sort: sortKey, dir: nextDir })}
        className="sort-link"
        title={`${t("lists.sortBy", {
          column: typeof children === "string" ? children : sortKey,
        })}, ${t(nextDir === "asc" ? "lists.ascending" : "lists.descending")}`}
      >
        {children}
        {active ? (
          <span aria-hidden="true">{dir === "asc" ? " ↑" : " ↓"}</span>
        ) : null}
      </Link>
    </th>
  );
}
