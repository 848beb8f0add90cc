import { useTranslation } from "~/components/i18n/i18n-context";
import { formatPriceSetAmount } from "~/modules/pricing/price-sets";
import { useRootData } from "~/modules/layout/root-data";
import type { StepProps } from "./types";

/** Step 1: prices of the market, notes of the domestic market, a way to ask. */
export function TechnicalInfoStep({ data }: StepProps) {
  const { t, i18n } = useTranslation();
  const contacts = useRootData()?.contacts;
  const set = data.priceSet;
  const money = (amount: number) => formatPriceSetAmount(amount, set.currency, i18n.language);
  const rows: Array<[string, number, string]> = [
    ["wizard.prices.singleLayer", set.singleLayerMaterial, "wizard.products.singleLayer"],
    ["wizard.prices.threeLayer", set.threeLayerMaterial, "wizard.products.threeLayer"],
    ...(data.traits.softMatrix ? ([["wizard.prices.softMatrix", set.softMatrix, "wizard.products.softMatrix"]] as Array<[string, number, string]>) : []),
    ["wizard.prices.hardMatrix", set.hardMatrix, "wizard.products.hardMatrix"],
    ["wizard.prices.retainer", set.retainer, "wizard.products.retainer"],
    ["wizard.prices.delivery", set.delivery, "wizard.prices.deliveryNote"],
  ];
  return (
    <div className="stack">
      <p>{t("wizard.step1.intro")}</p>
      <div className="table-wrap">
        <table>
          <caption className={data.personalPrices ? undefined : "visually-hidden"}>{t(data.personalPrices ? "wizard.step1.tableCaptionPersonal" : "wizard.step1.tableCaption")}</caption>
          <tbody>
            {rows.map(([label, amount, note]) => (
              <tr key={label}>
                <th scope="row">
                  {t(label)}
                  <div className="muted small">{t(note)}</div>
                </th>
                <td className="num">{money(amount)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {data.traits.domesticNotices ? (
        <>
          <p className="note">
            {t("wizard.step1.minimumOrder", {
              amount: money(set.minimumOrder),
            })}
          </p>
          <p className="note">
            {t("wizard.step1.monthlyDiscount", {
              amount: money(set.monthlyThreshold),
            })}
          </p>
        </>
      ) : null}
      <p className="muted">{t("wizard.step1.leadTime")}</p>
      {/* The step's own way to ask (customer side §2, step 1), besides the floating button. */}
      {contacts ? (
        <p>
          <a className="button button-secondary" href={contacts.messengerLink} target="_blank" rel="noopener noreferrer">
            {t("messenger.label")}
          </a>
        </p>
      ) : null}
    </div>
  );
}
