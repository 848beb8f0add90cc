import { useTranslation } from "~/modules/i18n/i18n-context";
import { formatMoney } from "~/modules/money/format";
import { lineText } from "~/modules/pricing/line-texts";
import type { StepProps } from "./types";

export function SummaryStep({ data }: StepProps) {
  const { t, i18n } = useTranslation();
  const order = data.order!;
  const price = data.price;
  const money = (amount: number) => formatMoney(amount, order.currency, i18n.language);
  return (
    <div className="stack">
      <p>
        {t("wizard.summary.number")} <strong>{order.number}</strong>
        {order.status !== "draft" ? <span className={`badge badge-${order.status}`}> {t(`orderStatus.${order.status}`)}</span> : null}
      </p>
      <dl className="summary-contacts">
        <dt>{t("wizard.fields.email")}</dt>
        <dd>{order.email ?? "—"}</dd>
        <dt>{t("wizard.fields.phone")}</dt>
        <dd>{order.phone ?? "—"}</dd>
        <dt>{t("wizard.fields.fullName")}</dt>
        <dd>{order.fullName ?? "—"}</dd>
        <dt>{t("wizard.fields.address")}</dt>
        <dd>{order.address ?? "—"}</dd>
      </dl>
      {data.patients.map((patient) => (
        <section key={patient.id} className="card summary-patient">
          <h3>
            {patient.name} <span className="muted small">{patient.folder}</span>
          </h3>
          <ul className="plain-list small">
            <li>
              {t("wizard.summary.matrix")}:{" "}
              {patient.skips.skipMatrix || !patient.files.matrix.length
                ? t("wizard.summary.none")
                : `${t(patient.matrixType === "soft" ? "wizard.matrix.soft" : "wizard.matrix.hard")} · ${t("wizard.summary.files", {
                    count: patient.files.matrix.length,
                  })}`}
            </li>
            <li>
              {t("wizard.summary.aligners")}:{" "}
              {patient.skips.skipAligners || !patient.files.aligners.length
                ? t("wizard.summary.none")
                : `${t(patient.materialType === "three_layer" ? "wizard.material.threeLayer" : "wizard.material.singleLayer")} · ${t(
                    patient.cutType === "straight" ? "wizard.cut.straight" : "wizard.cut.wavy",
                  )} · ${t("wizard.summary.files", {
                    count: patient.files.aligners.length,
                  })}`}
            </li>
            <li>
              {t("wizard.summary.retainers")}:{" "}
              {patient.skips.skipRetainers || !patient.files.retainer.length
                ? t("wizard.summary.none")
                : t("wizard.summary.files", {
                    count: patient.files.retainer.length,
                  })}
            </li>
            {patient.comments ? (
              <li>
                {t("wizard.fields.additionalComments")}: {patient.comments}
              </li>
            ) : null}
          </ul>
        </section>
      ))}
      {price ? (
        <div className="table-wrap">
          <table className="price-table">
            <caption className="visually-hidden">{t("wizard.summary.priceCaption")}</caption>
            <tbody>
              {price.lines
                .filter((line) => line.kind !== "delivery" && line.kind !== "service_fee")
                .map((line, index) => (
                  <tr key={index}>
                    <th scope="row">{lineText(line.kind, t, line.patientName ?? "")}</th>
                    <td className="num muted">
                      {line.quantity} × {money(line.unitPrice)}
                    </td>
                    <td className="num">{money(line.amount)}</td>
                  </tr>
                ))}
              {price.discountAmount > 0 ? (
                <tr>
                  <th scope="row">
                    {t("wizard.summary.discount", {
                      percent: price.discountPercent,
                    })}
                  </th>
                  <td />
                  <td className="num">−{money(price.discountAmount)}</td>
                </tr>
              ) : null}
              <tr>
                <th scope="row">{lineText("delivery", t)}</th>
                <td />
                <td className="num">{money(price.delivery)}</td>
              </tr>
              {price.serviceFee > 0 ? (
                <tr>
                  <th scope="row">
                    {lineText("service_fee", t)}
                    <div className="muted small">
                      {t("wizard.summary.serviceFeeNote", {
                        amount: money(price.minimumOrder),
                      })}
                    </div>
                  </th>
                  <td />
                  <td className="num">{money(price.serviceFee)}</td>
                </tr>
              ) : null}
              {price.note ? (
                <tr>
                  <th scope="row" colSpan={3} className="muted">
                    {price.note}
                  </th>
                </tr>
              ) : null}
            </tbody>
            <tfoot>
              <tr>
                <th scope="row">{t("wizard.summary.total")}</th>
                <td />
                <td className="num total">{money(price.total)}</td>
              </tr>
            </tfoot>
          </table>
        </div>
      ) : null}
      {data.personalOffer ? <p className="note">{t("wizard.personalOffer")}</p> : null}
      {order.status === "pending" ? <p className="note">{t("wizard.summary.pendingNote")}</p> : null}
    </div>
  );
}
