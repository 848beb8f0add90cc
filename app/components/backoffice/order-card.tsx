import type { DashboardOrder } from "~/modules/backoffice/dashboard.server";
import type { Carrier } from "~/modules/config/carriers";
import { actorText } from "~/modules/orders/actor-text";
import { useTranslation } from "~/components/i18n/i18n-context";
import { zonedTimes } from "~/modules/i18n/clock";
import type { StaffTimeZone } from "~/modules/market/market";
import { formatMoney } from "~/modules/money/format";
import { factsText } from "~/modules/packer/facts-text";
import { readablePhone } from "~/modules/validation/phone";
import { ListForm, ListLink } from "~/components/lists/plain-navigation";
import { type HistoryItem, historyOf } from "~/modules/backoffice/order-history";
import { TrackingLine } from "./order-card-parts";
import { OrderActions } from "./order-card-actions";
import type { FormReply } from "~/modules/http/forms/submission.server";
import { PatientLines, PatientsTable } from "./order-card-patients";

/**
 * An order card of the orders dashboard: the order's facts, its patients with how many files of each
 * kind and a link to them on the order's files page, history, and staff's actions on it.
 */

interface OrderCardProps {
  order: DashboardOrder;
  /** Where the card's forms return to (this page with its filters). */
  back: string;
  number: string;
  canPaymentLink: boolean;
  canTracker: boolean;
  /** The carriers offered with "Отправлен" and whether a change that skips a step asks first (ADR 062). */
  statusForms: { carriers: Carrier[]; confirmJumps: boolean };
  /** The zone its times are shown in (the market's, read once by the page). */
  timeZone: StaffTimeZone;
  /** On the dashboard: patients one line each; the order's own page has them as a table. */
  compact?: boolean;
  /** Where its status forms post when the page answers them in place (ADR 105); else the status route. */
  statusAction?: string;
  /** The page's reply to this card's refused status change: what was typed and why. */
  statusReply?: FormReply;
}

export function OrderCard({ order, back, number, canPaymentLink, canTracker, statusForms, timeZone, compact = false, statusAction, statusReply }: OrderCardProps) {
  const { t, i18n } = useTranslation();
  // In the market's zone, said as such: the same rendered by the server and in the browser.
  const when = zonedTimes(t, i18n.language, timeZone);
  const statusUrl = `/backoffice/orders/${order.id}/status`;
  const filesUrl = `/backoffice/orders/${order.id}/files?back=${encodeURIComponent(back)}`;
  const titleId = `order-${order.id}`;
  const history = order.folded ? [] : historyOf(order);

  return (
    <article className="card bo-order" aria-labelledby={titleId}>
      <header className="bo-order-head">
        <h2 id={titleId}>
          {/* The order's own page: everything of this card, and its payments (ADR 069). */}
          <ListLink to={`/backoffice/orders/${order.id}`}>{t("bo.orders.number", { number })}</ListLink>
        </h2>
        <span className={`badge badge-${order.status}`}>{t(`orderStatus.${order.status}`)}</span>
        {order.transferInvoice ? <span className="badge badge-transfer">{t("bo.orders.transferAwaited", { number: order.transferInvoice })}</span> : null}
        {order.unread > 0 ? (
          <ListLink to={`/backoffice/orders/${order.id}/thread`} className="badge badge-unread">
            {t("thread.unread", { count: order.unread })}
          </ListLink>
        ) : null}
      </header>
      <p className="small muted">
        <time dateTime={order.createdAt}>{when(order.createdAt)}</time>
      </p>
      <div className="bo-order-body">
        <dl className="bo-facts">
          <dt>{t("bo.orders.client")}</dt>
          <dd>{order.fullName || "—"}</dd>
          <dt>{t("bo.orders.contacts")}</dt>
          <dd>
            {order.email ? <a href={`mailto:${order.email}`}>{order.email}</a> : "—"}
            {order.phone ? (
              <>
                {" · "}
                <a href={`tel:${order.phone.replace(/[^+\d]/g, "")}`}>{readablePhone(order.phone)}</a>
              </>
            ) : null}
          </dd>
          <dt>{t("bo.orders.address")}</dt>
          <dd>{order.address || "—"}</dd>
          {order.deliveryComment ? (
            <>
              <dt>{t("bo.orders.deliveryComment")}</dt>
              <dd>{order.deliveryComment}</dd>
            </>
          ) : null}
          {order.comment?.trim() ? (
            <>
              <dt>{t("bo.orders.comment")}</dt>
              <dd>{order.comment}</dd>
            </>
          ) : null}
          {order.trackingNumber ? (
            <>
              <dt>{t("bo.orders.trackingNumber")}</dt>
              <dd>
                <code>{order.trackingNumber}</code>
              </dd>
            </>
          ) : null}
          {order.parcelReceived ? (
            <>
              <dt>{t("bo.orders.parcelReceived")}</dt>
              <dd>
                {when(order.parcelReceived.at)}
                {order.parcelReceived.by ? ` · ${order.parcelReceived.by}` : null}
              </dd>
            </>
          ) : null}
        </dl>

        {order.patients.length === 0 ? (
          <p className="muted small">{t("bo.orders.noPatients")}</p>
        ) : compact ? (
          <PatientLines patients={order.patients} filesUrl={filesUrl} />
        ) : (
          <PatientsTable patients={order.patients} filesUrl={filesUrl} number={number} />
        )}
      </div>

      <p className="bo-order-total">
        {t("bo.orders.total")}: <strong>{order.total === null ? "—" : formatMoney(order.total, order.currency, i18n.language)}</strong>
      </p>

      {order.folded ? (
        // On the dashboard: the latest entry (its undo too) and a link to the whole history on the order's page.
        <div className="bo-history bo-history-folded">
          {order.folded.latest ? (
            <ol>
              <HistoryLine item={order.folded.latest} back={back} statusUrl={statusUrl} carriers={statusForms.carriers} when={when} />
            </ol>
          ) : null}
          <ListLink to={`/backoffice/orders/${order.id}#history`} className="small">
            {t("bo.orders.history", { count: order.folded.count })}
          </ListLink>
        </div>
      ) : (
        // On the order's own page: the whole history, open (the dashboard's link leads here).
        <details className="bo-history" id="history" open>
          <summary>{t("bo.orders.history", { count: history.length })}</summary>
          <ol>
            {history.map((item, index) => (
              <HistoryLine key={index} item={item} back={back} statusUrl={statusUrl} carriers={statusForms.carriers} when={when} />
            ))}
          </ol>
        </details>
      )}

      <OrderActions order={order} back={back} statusForms={statusForms} canPaymentLink={canPaymentLink} canTracker={canTracker} statusAction={statusAction} reply={statusReply} />
    </article>
  );
}

/** One entry of an order's history: a status change (with its undo while it may be undone), the packer's mark or a file's correction. */
function HistoryLine({ item, back, statusUrl, carriers, when }: { item: HistoryItem; back: string; statusUrl: string; carriers: Carrier[]; when: (at: string) => string }) {
  const { t } = useTranslation();
  if (item.kind === "packed") {
    return (
      <li>
        <time dateTime={item.entry.at}>{when(item.entry.at)}</time> {t("bo.orders.packed")}
        {/* Packed with bags not scanned (ADR 103): how many, and the packer's reason, as text. */}
        {item.entry.missingBags > 0 ? <span className="bo-packed-missing"> · {t("bo.orders.packedMissing", { count: String(item.entry.missingBags), reason: item.entry.reason ?? "" })}</span> : null}
        <span className="muted"> · {actorText(t, item.entry.actor)}</span>
      </li>
    );
  }
  if (item.kind === "file") {
    return (
      <li>
        <time dateTime={item.entry.at}>{when(item.entry.at)}</time> {t("bo.orders.files.change", { name: item.entry.name, from: factsText(t, item.entry.from), to: factsText(t, item.entry.to) })}
        <span className="muted">
          {" "}
          · {item.entry.patientFolder} · {actorText(t, item.entry.actor)}
        </span>
      </li>
    );
  }
  const { entry } = item;
  return (
    <li>
      <time dateTime={entry.at}>{when(entry.at)}</time>{" "}
      {entry.from ? `${t(`orderStatus.${entry.from}`)} → ${t(`orderStatus.${entry.to}`)}` : t("bo.orders.created", { status: t(`orderStatus.${entry.to}`) })}
      <span className="muted"> · {actorText(t, entry.actor)}</span>
      {entry.undoes ? <span className="muted"> · {t("bo.orders.undoOf")}</span> : null}
      {entry.undone ? <span className="badge"> {t("bo.orders.undoneMark")}</span> : null}
      {entry.trackingNumber ? <TrackingLine number={entry.trackingNumber} carrier={entry.carrier} carriers={carriers} /> : null}
      {entry.note ? <div className="small">{entry.note}</div> : null}
      {entry.undoable ? (
        <ListForm action={statusUrl} className="bo-undo">
          <input type="hidden" name="back" value={back} />
          <input type="hidden" name="undo" value={entry.id} />
          <button type="submit" className="link-button small">
            {t("bo.orders.undo")}
          </button>
        </ListForm>
      ) : null}
    </li>
  );
}
