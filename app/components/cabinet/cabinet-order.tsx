import { Form, Link } from "@remix-run/react";
import type { SerializeFrom } from "@remix-run/node";
import { useTranslation } from "~/components/i18n/i18n-context";
import { dateTimeFormat } from "~/modules/i18n/intl";
import { formatMoney } from "~/modules/money/format";
import type { CabinetOrderReply, loadCabinetOrderPage } from "~/modules/cabinet/cabinet-order-page.server";
import { OrderInvoices } from "./order-invoices";
import { OpenInvoiceNote } from "~/components/payments/open-invoice-note";
import { PaymentReceiptNote } from "./payment-receipt";
import { ThreadForm, ThreadMessages } from "~/components/thread/order-thread";

type Data = SerializeFrom<typeof loadCabinetOrderPage>;
type Tracking = NonNullable<Data["order"]["tracking"]>;

/** The parcel's number, its carrier and the carrier's page to follow it (ADR 062). */
function TrackingLine({ tracking }: { tracking: Tracking }) {
  const { t } = useTranslation();
  return (
    <span className="order-tracking">
      {t("cabinet.tracking", { number: tracking.number })}
      {tracking.carrier ? ` · ${tracking.carrier}` : null}
      {tracking.link ? (
        <>
          {" · "}
          <a href={tracking.link} target="_blank" rel="noopener noreferrer">
            {t("cabinet.followParcel")}
          </a>
        </>
      ) : null}
    </span>
  );
}

/** One order in the cabinet, whole: timeline, parcel, patients and files, payments (ADR 070), bank-transfer invoices (ADR 072). */
export function CabinetOrder({ data, reply }: { data: Data; reply?: CabinetOrderReply }) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language === "ru" ? "ru-RU" : i18n.language;
  const when = (at: string) => dateTimeFormat(locale, { dateStyle: "short", timeStyle: "short" }).format(new Date(at));
  const { order } = data;
  return (
    <article className="cabinet-order">
      <div className="order-card-head">
        <h1>{t("cabinet.orderNumber", { number: order.number })}</h1>
        <span className={`badge badge-${order.status}`}>{t(`orderStatus.${order.status}`)}</span>
      </div>
      <p className="muted small">
        {order.fullName ? `${order.fullName} · ` : null}
        {order.address}
      </p>

      <section className="card" aria-labelledby="order-timeline">
        <h2 id="order-timeline">{t("cabinet.timeline.title")}</h2>
        <ol className="timeline">
          {data.timeline.map((entry) => (
            <li key={entry.key}>
              <time dateTime={entry.at}>{when(entry.at)}</time> —{" "}
              <strong>{entry.status ? t(`cabinet.timeline.${entry.status}`) : t(`cabinet.timeline.${entry.key === "created" ? "created" : "received"}`)}</strong>
              {entry.tracking ? (
                <>
                  {" "}
                  <TrackingLine tracking={entry.tracking} />
                </>
              ) : null}
            </li>
          ))}
        </ol>
        {order.tracking && order.status === "shipped" ? (
          <p className="small">
            <TrackingLine tracking={order.tracking} />
          </p>
        ) : null}
        {order.canMarkReceived ? (
          <Form method="post" className="parcel-received">
            <input type="hidden" name="intent" value="received" />
            <p className="small muted">{t("cabinet.parcel.hint")}</p>
            <button type="submit" className="button button-small">
              {t("cabinet.parcel.mark")}
            </button>
          </Form>
        ) : null}
      </section>

      <section className="card" aria-labelledby="order-files">
        <h2 id="order-files">{t("cabinet.files.title", { count: data.patients.length })}</h2>
        {order.filesRemoved ? <p className="small muted">{t("cabinet.files.removed")}</p> : null}
        {data.patients.map((patient) => (
          <div key={patient.id} className="stack">
            <h3>{patient.name}</h3>
            {/* The order's own page, where every mail leads: "Заказать снова" here too, not only in the cabinet's list (ADR 071). */}
            {order.status !== "draft" ? (
              <p className="small">
                <Link to={`/cabinet/again/${order.id}/${patient.id}`} aria-label={t("orderAgain.linkLabel", { patient: patient.name })}>
                  {t("orderAgain.link")}
                </Link>
              </p>
            ) : null}
            <ul className="plain-list small">
              {patient.files.map((group) => (
                <li key={group.type}>
                  {t(group.type === "matrix" ? "wizard.summary.matrix" : group.type === "aligners" ? "wizard.summary.aligners" : "wizard.summary.retainers")}:{" "}
                  {group.files.length === 0
                    ? t("cabinet.noFiles")
                    : group.files.map((file, index) => (
                        <span key={file.url}>
                          {index ? ", " : null}
                          {order.filesRemoved ? (
                            file.name
                          ) : (
                            <>
                              {/* A PLY or OBJ as sent, and the STL made from it (ADR 102). */}
                              <a href={file.sourceUrl ?? file.url}>{file.name}</a>
                              {file.sourceUrl ? (
                                <>
                                  {" "}
                                  (<a href={file.url}>STL</a>)
                                </>
                              ) : null}
                            </>
                          )}
                        </span>
                      ))}
                </li>
              ))}
            </ul>
          </div>
        ))}
      </section>

      <section className="card" aria-labelledby="order-payments">
        <h2 id="order-payments">{t("cabinet.payments.title")}</h2>
        <p>
          {t("cabinet.payments.total")}: <strong>{order.total === null ? "—" : formatMoney(order.total, order.currency, i18n.language)}</strong>
        </p>
        {data.payments.length === 0 ? <p className="small muted">{t("cabinet.payments.none")}</p> : null}
        <ul className="plain-list">
          {data.payments.map((payment) => (
            <li key={payment.id}>
              <time className="small muted" dateTime={payment.at}>
                {when(payment.at)}
              </time>
              <PaymentReceiptNote paid={payment} locale={locale} />
            </li>
          ))}
        </ul>
        {order.canPay && data.openInvoice ? <OpenInvoiceNote invoice={data.openInvoice} /> : null}
        {order.canPay ? (
          <Link to={`/pay/${order.id}`} className="button button-small">
            {t("cabinet.pay")}
          </Link>
        ) : null}
      </section>

      <OrderInvoices data={data} reply={reply} />

      <section className="card" aria-labelledby="order-thread" id="thread">
        <h2 id="order-thread">{t("thread.title")}</h2>
        {data.thread.waitingOnClinic ? (
          <p className="note" role="status">
            {t("thread.cabinet.yourAnswer")}
          </p>
        ) : null}
        <ThreadMessages messages={data.thread.messages} viewer="clinic" />
        <ThreadForm intent="message" reply={reply} label="thread.cabinet.messageLabel" submit="thread.send" />
      </section>
    </article>
  );
}
