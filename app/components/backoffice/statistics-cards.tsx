import type { Figure, Statistics } from "~/modules/backoffice/statistics";
import { useTranslation } from "~/components/i18n/i18n-context";
import { numberFormat } from "~/modules/i18n/intl";
import { formatMoney } from "~/modules/money/format";

/** The orders dashboard's statistics cards: orders, and revenue and average per currency, against the period before. */

const localeOf = (language: string) => (language === "ru" ? "ru-RU" : language);

function Change({ figure, format }: { figure: Figure; format: (value: number) => string }) {
  const { t } = useTranslation();
  const sign = figure.change > 0 ? "+" : "";
  return (
    <p className={`bo-stat-change ${figure.change > 0 ? "bo-up" : figure.change < 0 ? "bo-down" : ""}`}>
      {t("bo.stats.change", { change: `${sign}${figure.change}%`, previous: format(figure.previous) })}
    </p>
  );
}

export function StatisticsCards({ statistics }: { statistics: Statistics }) {
  const { t, i18n } = useTranslation();
  const number = (value: number) => numberFormat(localeOf(i18n.language)).format(value);
  return (
    <section className="bo-stats" aria-labelledby="stats-title">
      <h2 id="stats-title" className="bo-stats-title">
        {t("bo.stats.title")}
      </h2>
      <div className="bo-stat card" role="group" aria-labelledby="stat-count">
        <h3 id="stat-count">{t("bo.stats.count")}</h3>
        <p className="bo-stat-value">{number(statistics.count.current)}</p>
        <Change figure={statistics.count} format={number} />
      </div>
      {statistics.money.map(({ currency, revenue, average }) => {
        const money = (value: number) => formatMoney(value, currency, i18n.language);
        return [
          <div key={`${currency}-revenue`} className="bo-stat card" role="group" aria-labelledby={`stat-revenue-${currency}`}>
            <h3 id={`stat-revenue-${currency}`}>{t("bo.stats.revenue", { currency: currency.toUpperCase() })}</h3>
            <p className="bo-stat-value">{money(revenue.current)}</p>
            <Change figure={revenue} format={money} />
          </div>,
          <div key={`${currency}-average`} className="bo-stat card" role="group" aria-labelledby={`stat-average-${currency}`}>
            <h3 id={`stat-average-${currency}`}>{t("bo.stats.average", { currency: currency.toUpperCase() })}</h3>
            <p className="bo-stat-value">{money(average.current)}</p>
            <Change figure={average} format={money} />
          </div>,
        ];
      })}
    </section>
  );
}
