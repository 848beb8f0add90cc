import { Form, Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { useTranslation } from "~/components/i18n/i18n-context";
import type { ListMarket } from "~/modules/http/request/list-query";

/**
 * The list kit's filter bar (ADR 067): one GET form with the kit's names — `q`, `from`, `to`,
 * `market` — and a list's own controls as children. What the address keeps besides (a tab, a view)
 * travels as hidden fields; paging never does, so a new filter starts at the first page. Works
 * without JavaScript; with it, Remix submits it as a navigation.
 */
export interface FilterBarProps {
  /** Names the search landmark ("Фильтр списка" unless said); never the search field's own label. */
  label?: string;
  /** Names and values the address keeps through the form (null: none). */
  keep?: Record<string, string | null>;
  search?: { id: string; value: string; label: string; placeholder?: string };
  dates?: {
    from: string | null;
    to: string | null;
    fromLabel?: string;
    toLabel?: string;
  };
  /** The market select: the current one (null: all); absent when the list has no market. */
  market?: {
    value: ListMarket | null;
    label?: string;
    allLabel?: string;
    domesticLabel?: string;
    internationalLabel?: string;
    id: string;
  };
  children?: ReactNode;
  /** Where "reset" leads, shown when the list is narrowed. */
  resetTo?: string | null;
  applyLabel?: string;
  resetLabel?: string;
  className?: string;
}

export function FilterBar({
  label,
  keep = {},
  search,
  dates,
  market,
  children,
  resetTo,
  applyLabel,
  resetLabel,
  className,
}: FilterBarProps) {
  const { t } = useTranslation();
  return (
    <Form
      method="get"
      className={`filters list-filters${className ? ` ${className}` : ""}`}
      role="search"
      aria-label={label ?? t("lists.filters")}
    >
      {Object.entries(keep).map(([name, value]) =>
        value === null ? null : (
          <input key={name} type="hidden" name={name} value={value} />
        )
      )}
      {search ? (
        <>
          <label htmlFor={search.id} className="visually-hidden">
            {search.label}
          </label>
          <input
            id={search.id}
            type="search"
            name="q"
            defaultValue={search.value}
            placeholder={search.placeholder ?? search.label}
            maxLength={200}
          />
        </>
      ) : null}
      {dates ? (
        <>
          <label className="bo-date">
            <span>{dates.fromLabel ?? t("lists.from")}</span>
            <input type="date" name="from" defaultValue={dates.from ?? ""} />
          </label>
          <label className="bo-date">
            <span>{dates.toLabel ?? t("lists.to")}</span>
            <input type="date" name="to" defaultValue={dates.to ?? ""} />
          </label>
        </>
      ) : null}
      {market ? (
        <>
          <label htmlFor={market.id} className="visually-hidden">
            {market.label ?? t("lists.market")}
          </label>
          <select
            id={market.id}
            name="market"
            defaultValue={market.value ?? ""}
          >
            <option value="">{market.allLabel ?? t("lists.allMarkets")}</option>
            <option value="domestic">
              {market.domesticLabel ?? t("lists.domestic")}
            </option>
            <option value="international">
              {market.internationalLabel ?? t("lists.international")}
            </option>
          </select>
        </>
      ) : null}
      {children}
      <button type="submit" className="button button-secondary button-small">
        {applyLabel ?? t("lists.apply")}
      </button>
      {resetTo ? (
        <Link to={resetTo} className="bo-reset">
          {resetLabel ?? t("lists.reset")}
        </Link>
      ) : null}
    </Form>
  );
}
