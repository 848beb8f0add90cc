import { Link } from "@remix-run/react";
import type { SerializeFrom } from "@remix-run/node";
import { useTranslation } from "~/components/i18n/i18n-context";
import { dateTimeFormat } from "~/modules/i18n/intl";
import { formatMoney } from "~/modules/money/format";
import type { loadCabinetPage } from "~/modules/cabinet/cabinet-page.server";
import { cabinetOrderPath } from "~/modules/orders/cabinet-links";
import { PaymentReceiptNote } from "./payment-receipt";

type CabinetOrder = SerializeFrom<typeof loadCabinetPage>["orders"][number];

/** One order in the cabinet: number (its page), date, status, patients, the parcel, the composition, total, payment and receipt. */
export function OrderCard({ order, locale }: { order: CabinetOrder; locale: string }) {
  const { t, i18n } = useTranslation();
  return (
    <li className="card order-card">
      <div className="order-card-head">
        <h2>
          <Link to={cabinetOrderPath(order.id)}>{t("cabinet.orderNumber", { number: order.number })}</Link>
          {order.unread > 0 ? (
            <>
              {" "}
              <Link to={`${cabinetOrderPath(order.id)}#thread`} className="badge badge-unread">
                {t("thread.unread", { count: order.unread })}
              </Link>
            </>
          ) : null}
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
      {order.patients.length ? <p className="order-patients">{t("cabinet.patients", { names: order.patients.map((patient) => patient.name).join(", ") })}</p> : null}
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
      {order.received ? <p className="small">{t("cabinet.parcel.receivedOn", { date: dateTimeFormat(locale, { dateStyle: "short" }).format(new Date(order.received)) })}</p> : null}
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
        {order.paid ? <PaymentReceiptNote paid={order.paid} locale={locale} /> : null}
        {order.canPay ? (
          <Link to={`/pay/${order.id}`} className="button button-small">
            {t("cabinet.pay")}
          </Link>
        ) : null}
      </div>
    </li>
  );
}
