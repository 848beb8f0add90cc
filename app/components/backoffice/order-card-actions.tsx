import type { OrderStatus } from "~db/schema";
import type { ReactNode } from "react";
import type { DashboardOrder } from "~/modules/backoffice/dashboard.server";
import type { Carrier } from "~/modules/config/carriers";
import type { FormReply } from "~/modules/http/forms/submission.server";
import { isJump } from "~/modules/orders/status";
import { useTranslation } from "~/components/i18n/i18n-context";
import { ListForm, ListLink } from "~/components/lists/plain-navigation";
import { DeleteLink } from "./order-card-parts";

const COMPLETABLE: readonly OrderStatus[] = ["paid", "processing", "shipped"];
const CANCELLABLE: readonly OrderStatus[] = ["draft", "pending", "paid", "processing"];

/** The reason a page gave for refusing a card's status change: its own (not allowed now, a carrier) or a field's. */
function refusalOf(reply: FormReply | undefined): string | null {
  if (!reply?.error) return null;
  const errors = reply.error;
  const first = (name: string) => errors[name]?.[0];
  return first("") ?? first("to") ?? first("note") ?? first("trackingNumber") ?? first("carrier") ?? first("undo") ?? first("orderId") ?? "bo.orders.errors.notAllowed";
}

/** A status form: to the page when it answers in place (its intent and the order named), else to the status route with its way back. */
function StatusForm({ orderId, statusAction, back, children, className }: { orderId: string; statusAction?: string; back: string; children: ReactNode; className?: string }) {
  return (
    <ListForm action={statusAction ?? `/backoffice/orders/${orderId}/status`} className={className}>
      {statusAction ? (
        <>
          <input type="hidden" name="intent" value="status" />
          <input type="hidden" name="orderId" value={orderId} />
        </>
      ) : (
        <input type="hidden" name="back" value={back} />
      )}
      {children}
    </ListForm>
  );
}

/** The texts a refused change had typed (its tracking number, its note), for a page that no longer shows its card. */
function typedOf(reply: FormReply | undefined): Array<["trackingNumber" | "note", string]> {
  const values = (reply?.initialValue ?? {}) as Record<string, unknown>;
  return (["trackingNumber", "note"] as const).flatMap((name) => (typeof values[name] === "string" && values[name] ? [[name, values[name] as string] as ["trackingNumber" | "note", string]] : []));
}

/** A refused change of an order the page does not show: why, and what was typed for it, readable to copy to where the order is now. */
export function RefusedElsewhere({ reply }: { reply: FormReply }) {
  const { t } = useTranslation();
  return (
    <div role="alert">
      <p className="field-error">{t(refusalOf(reply) ?? "bo.orders.errors.notAllowed")}</p>
      {typedOf(reply).map(([name, value]) => (
        <p key={name} className="small">
          {t(`bo.orders.typed.${name}`)} <code>{value}</code>
        </p>
      ))}
    </div>
  );
}

interface OrderActionsProps {
  order: DashboardOrder;
  back: string;
  statusForms: { carriers: Carrier[]; confirmJumps: boolean };
  canPaymentLink: boolean;
  canTracker: boolean;
  /** The page's own action, when it answers a refused change in place (ADR 105); else the status route, by a toast. */
  statusAction?: string;
  reply?: FormReply;
}

/**
 * Staff's actions on an order's card: its status changes (through the state machine), a payment
 * link, the tracker, delete. A refused change comes back in its form, open, with what was typed and
 * why (ADR 105).
 */
export function OrderActions({ order, back, statusForms, canPaymentLink, canTracker, statusAction, reply }: OrderActionsProps) {
  const { t } = useTranslation();
  const refusal = refusalOf(reply);
  const refusalId = `status-refusal-${order.id}`;
  const typedValues = (reply?.initialValue ?? {}) as Record<string, unknown>;
  const typed = (name: string) => (typeof typedValues[name] === "string" ? (typedValues[name] as string) : undefined);
  const refusedTo = refusal ? typed("to") : undefined;
  const target = { orderId: order.id, statusAction, back };
  // A refusal of a form with a text is said in that form, beside the text it marks; any other above the actions.
  const inForm = refusedTo === "shipped" || refusedTo === "cancelled";
  const invalid = (to: string) => (refusedTo === to ? { "aria-invalid": true, "aria-describedby": refusalId } : {});
  const said = (to: string) =>
    refusedTo === to && refusal ? (
      <p className="field-error bo-status-refusal" id={refusalId} role="alert">
        {t(refusal)}
      </p>
    ) : null;
  return (
    <div className="bo-order-actions">
      {refusal && !inForm ? (
        <p className="field-error bo-status-refusal" id={refusalId} role="alert">
          {t(refusal)}
        </p>
      ) : null}
      {order.status !== "draft" && statusForms.confirmJumps && isJump(order.status, "completed") && COMPLETABLE.includes(order.status) ? (
        // Where the lab asks for it, completing an order that was not shipped asks first (ADR 062).
        <details className="bo-confirm">
          <summary className="button button-small">{t("bo.orders.actions.complete")}</summary>
          <StatusForm {...target} className="bo-confirm-body">
            <input type="hidden" name="to" value="completed" />
            <input type="hidden" name="confirm" value="yes" />
            <p className="small">{t("bo.orders.jumpQuestion", { to: t("orderStatus.completed"), skipped: t("orderStatus.shipped") })}</p>
            <button type="submit" className="button button-small">
              {t("bo.orders.jumpYes")}
            </button>
          </StatusForm>
        </details>
      ) : order.status !== "draft" ? (
        <StatusForm {...target}>
          <input type="hidden" name="to" value="completed" />
          <button type="submit" className="button button-small" disabled={!COMPLETABLE.includes(order.status)}>
            {t("bo.orders.actions.complete")}
          </button>
        </StatusForm>
      ) : null}
      {order.status === "paid" ? (
        <StatusForm {...target}>
          <input type="hidden" name="to" value="processing" />
          <button type="submit" className="button button-secondary button-small">
            {t("bo.orders.actions.processing")}
          </button>
        </StatusForm>
      ) : null}
      {order.status === "processing" || refusedTo === "shipped" ? (
        <details className="bo-confirm" open={refusedTo === "shipped" || undefined}>
          <summary className="button button-secondary button-small">{t("bo.orders.actions.shipped")}</summary>
          <StatusForm {...target} className="bo-confirm-body">
            <input type="hidden" name="to" value="shipped" />
            {/* Not packed yet (no packer's "Упаковано"): the form asks before the parcel is marked sent. */}
            {order.packing ? null : <p className="small bo-unpacked-question">{t("bo.orders.unpackedQuestion")}</p>}
            <label htmlFor={`carrier-${order.id}`}>{t("bo.orders.carrier")}</label>
            <select id={`carrier-${order.id}`} name="carrier" defaultValue={typed("carrier") ?? statusForms.carriers[0]?.id}>
              {statusForms.carriers.map((carrier) => (
                <option key={carrier.id} value={carrier.id}>
                  {carrier.trackingUrl ? carrier.name : t("bo.orders.carrierOther")}
                </option>
              ))}
            </select>
            <label htmlFor={`tracking-${order.id}`}>{t("bo.orders.trackingNumber")}</label>
            <input id={`tracking-${order.id}`} type="text" name="trackingNumber" required autoComplete="off" defaultValue={typed("trackingNumber")} {...invalid("shipped")} />
            {said("shipped")}
            <button type="submit" className="button button-small">
              {t("bo.orders.actions.ship")}
            </button>
          </StatusForm>
        </details>
      ) : null}
      {canPaymentLink ? (
        <ListForm action="/backoffice?index">
          <input type="hidden" name="orderId" value={order.id} />
          <button type="submit" name="intent" value="payment_link" className="button button-secondary button-small">
            {t("payments.backoffice.createLink")}
          </button>
        </ListForm>
      ) : null}
      {canTracker ? (
        <ListLink to={`/backoffice/orders/${order.id}/tracker?back=${encodeURIComponent(back)}`} className="button button-secondary button-small">
          {t("bo.tracker.action")}
        </ListLink>
      ) : null}
      {CANCELLABLE.includes(order.status) || refusedTo === "cancelled" ? (
        <details className="bo-confirm" open={refusedTo === "cancelled" || undefined}>
          <summary className="button button-secondary button-small">{t("bo.orders.actions.cancel")}</summary>
          <StatusForm {...target} className="bo-confirm-body">
            <input type="hidden" name="to" value="cancelled" />
            {/* This form is the confirmation of the cancel. */}
            <input type="hidden" name="confirm" value="yes" />
            <label htmlFor={`note-${order.id}`}>
              {order.status === "paid" || order.status === "processing" ? t("bo.orders.noteRequired") : t("bo.orders.noteOptional")}
            </label>
            <textarea id={`note-${order.id}`} name="note" rows={2} required={order.status === "paid" || order.status === "processing"} defaultValue={typed("note")} {...invalid("cancelled")} />
            {said("cancelled")}
            <button type="submit" className="button button-small bo-danger">
              {t("bo.orders.actions.cancelYes")}
            </button>
          </StatusForm>
        </details>
      ) : null}
      {order.deletable ? <DeleteLink orderId={order.id} back={back} /> : null}
    </div>
  );
}
