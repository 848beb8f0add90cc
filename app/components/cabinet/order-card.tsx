import { Link } from "@remix-run/react";
import type { SerializeFrom } from "@remix-run/node";
import { useTranslation } from "~/modules/i18n/i18n-context";
import { dateTimeFormat } from "~/modules/i18n/intl";
import { formatMoney } from "~/modules/money/format";
import type { loadCabinetPage } from "~/modules/orders/cabinet-page.server";

type CabinetOrder = SerializeFrom<typeof loadCabinetPage>["orders"][number];

/** One order in the cabinet: number, date, status, patients and their files, total, payment. */
export function OrderCard({ order, locale }: { order: CabinetOrder; locale: string }) {
  const { t, i18n } = useTranslation();
  return (
    <li className="card order-card">
      <div className="order-card-head">
        <h2>
          {t("cabinet.orderNumber", { number: order.number })}
          <span className="muted small">
            {" "}
            ·{" "}
            {dateTimeFormat(locale, {
              dateStyle: "short",
              timeStyle: "short",
            }).format(new Date(order.createdAt))}
          </span>
        </h2>
        <span className={`badge badge-${order.status}`}>
          {order.status === "paid" ? <span aria-hidden="true">✓ </span> : null}
          {t(`orderStatus.${order.status}`)}
        </span>
      </div>
      {order.address ? <p className="small">{order.address}</p> : null}
      {order.tracking ? (
        <p className="small order-tracking">
          {t("cabinet.tracking", { number: order.tracking.number })}
          {order.tracking.carrier ? ` · ${order.tracking.carrier}` : null}
          {order.tracking.link ? (
            <>
              {" · "}
              <a href={order.tracking.link} target="_blank" rel="noopener noreferrer">
                {t("cabinet.followParcel")}
              </a>
            </>
          ) : null}
        </p>
      ) : null}
      {order.deliveryComment ? <p className="small muted">{order.deliveryComment}</p> : null}
      <details>
        <summary>{t("cabinet.composition", { count: order.patients.length })}</summary>
        <ul className="plain-list small">
          {order.patients.map((patient) => (
            <li key={patient.id}>
              <strong>{patient.name}</strong>{" "}
              <Link to={`/cabinet/again/${order.id}/${patient.id}`} className="small" aria-label={t("orderAgain.linkLabel", { patient: patient.name })}>
                {t("orderAgain.link")}
              </Link>
              <div>
                {t("wizard.summary.matrix")}: {patient.matrix.length ? patient.matrix.join(", ") : t("cabinet.noFiles")}
              </div>
              <div>
                {t("wizard.summary.aligners")}: {patient.aligners.length ? patient.aligners.join(", ") : t("cabinet.noFiles")}
              </div>
              <div>
                {t("wizard.summary.retainers")}: {patient.retainers.length ? patient.retainers.join(", ") : t("cabinet.noFiles")}
              </div>
            </li>
          ))}
        </ul>
      </details>
      <div className="order-card-foot">
        <strong>{order.total === null ? "—" : formatMoney(order.total, order.currency, i18n.language)}</strong>
        {order.paid ? (
          <p className="muted small">
            {t("cabinet.paidAmount", { amount: formatMoney(order.paid.amount, order.paid.currency, i18n.language) })}
            {order.paid.vatNumber ? (
              <>
                <br />
                {t("cabinet.vatNumber", { vat: order.paid.vatNumber })}
              </>
            ) : null}
          </p>
        ) : null}
        {order.canPay ? (
          <Link to={`/pay/${order.id}`} className="button button-small">
            {t("cabinet.pay")}
          </Link>
        ) : null}
      </div>
    </li>
  );
}
