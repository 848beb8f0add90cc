import { useTranslation } from "~/components/i18n/i18n-context";
import { OrderButton } from "./order-button";

export interface PriceList {
  rows: Array<{ key: "singleLayer" | "threeLayer" | "softMatrix" | "hardMatrix" | "retainer" | "delivery"; amount: string }>;
  minimumOrder: string;
  monthlyThreshold: string;
  /** The signed-in client's own prices (personal conditions), not the base set. */
  personal?: boolean;
}

/** Anchor `pricing`: the market's price set (customer-side §2, §9). */
export function Pricing({ prices, domesticNotices, messengerLink, alt }: { prices: PriceList; domesticNotices: boolean; messengerLink: string; alt: boolean }) {
  const { t } = useTranslation();
  const notes = (
    <ul className="pricing-notes">
      <li>{t("wizard.step1.leadTime")}</li>
      <li>{t("landing.pricing.newClient")}</li>
      <li>{t("landing.pricing.cashless")}</li>
    </ul>
  );
  return (
    <section className={alt ? "landing-section landing-section-alt" : "landing-section"} id="pricing" aria-labelledby="pricing-title">
      <div className="container pricing">
        <div>
          <h2 id="pricing-title">{t(prices.personal ? "landing.pricing.titlePersonal" : "landing.pricing.title")}</h2>
          <p className="section-lead">{t("landing.pricing.lead")}</p>
          <div className="table-wrap">
            <table className="price-list">
              <caption className="visually-hidden">{t(prices.personal ? "wizard.step1.tableCaptionPersonal" : "wizard.step1.tableCaption")}</caption>
              <thead>
                <tr>
                  <th scope="col">{t("landing.pricing.item")}</th>
                  <th scope="col" className="num">
                    {t("landing.pricing.price")}
                  </th>
                </tr>
              </thead>
              <tbody>
                {prices.rows.map((row) => (
                  <tr key={row.key}>
                    <th scope="row">
                      {t(`wizard.prices.${row.key}`)}
                      <span className="muted small"> · {row.key === "delivery" ? t("wizard.prices.deliveryNote") : t(`wizard.products.${row.key}`)}</span>
                    </th>
                    <td className="num">{row.amount}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {domesticNotices ? notes : null}
        </div>
        <div className="pricing-side">
          {domesticNotices ? (
            <>
              <div className="card notice-card" role="note">
                <h3>{t("landing.pricing.minimumTitle", { amount: prices.minimumOrder })}</h3>
                <p>{t("landing.pricing.minimumFee")}</p>
              </div>
              <div className="card">
                <h3>{t("landing.pricing.regularTitle")}</h3>
                <p>{t("wizard.step1.monthlyDiscount", { amount: prices.monthlyThreshold })}</p>
              </div>
            </>
          ) : (
            <div className="card">{notes}</div>
          )}
          <div className="pricing-actions">
            <OrderButton>{t("landing.pricing.order")}</OrderButton>
            <a className="button button-secondary" href={messengerLink} target="_blank" rel="noopener noreferrer">
              {t("landing.pricing.messenger")}
            </a>
          </div>
        </div>
      </div>
    </section>
  );
}
