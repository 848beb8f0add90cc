import { useTranslation } from "~/components/i18n/i18n-context";
import { numberFormat } from "~/modules/i18n/intl";
import type { CodeSpaceUsage } from "~/modules/orders/order-codes";

const localeOf = (language: string) => (language === "ru" ? "ru-RU" : language);

/** How full the order code space is (DESIGN §4.6, ADR 038), with a warning above 80 %. */
export function CodeSpaceCard({ codes }: { codes: CodeSpaceUsage }) {
  const { t, i18n } = useTranslation();
  const locale = localeOf(i18n.language);
  const number = (value: number) => numberFormat(locale).format(value);
  const percent = numberFormat(locale, { maximumFractionDigits: 1 }).format(codes.percent);
  return (
    <section className="bo-stats" aria-labelledby="codes-title">
      <div className={`bo-stat card${codes.warning ? " bo-stat-warning" : ""}`} role="group" aria-labelledby="codes-title">
        <h3 id="codes-title">{t("bo.codes.title")}</h3>
        <p className="bo-stat-value">{t("bo.codes.held", { percent, held: number(codes.held), total: number(codes.total) })}</p>
        {codes.warning ? (
          <p className="bo-stat-alert" role="alert">
            {t("bo.codes.warning")}
          </p>
        ) : null}
        <p className="bo-stat-change">{t("bo.codes.hint")}</p>
      </div>
    </section>
  );
}
