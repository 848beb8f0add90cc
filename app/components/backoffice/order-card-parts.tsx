import { useSubmit } from "@remix-run/react";
import { ListLink } from "~/components/lists/plain-navigation";
import { type Carrier, carrierName, trackingLink } from "~/modules/config/carriers";
import { useTranslation } from "~/components/i18n/i18n-context";

/** The order card's smaller parts: the delete link and the tracking line. */

/**
 * Without JavaScript: a link to the confirmation page. With it: the browser's own confirmation
 * ("Вы уверены, что хотите удалить этот заказ?"), then the same POST the page would send.
 */
export function DeleteLink({ orderId, back }: { orderId: string; back: string }) {
  const { t } = useTranslation();
  const submit = useSubmit();
  const url = `/backoffice/orders/${orderId}/delete`;
  return (
    <ListLink
      to={`${url}?back=${encodeURIComponent(back)}`}
      className="button button-secondary button-small bo-danger-link"
      onClick={(event) => {
        event.preventDefault();
        if (window.confirm(t("bo.orders.delete.confirm"))) submit({ back }, { method: "post", action: url });
      }}
    >
      {t("bo.orders.actions.delete")}
    </ListLink>
  );
}

/** A tracking number, with its carrier and a link to follow the parcel when the carrier has a page (ADR 062). */
export function TrackingLine({ number, carrier, carriers }: { number: string; carrier: string | null; carriers: Carrier[] }) {
  const { t } = useTranslation();
  const link = trackingLink(carriers, carrier, number);
  const name = carrierName(carriers, carrier);
  return (
    <div className="small">
      {t("bo.orders.trackingShort", { number })}
      {name ? ` · ${name}` : null}
      {link ? (
        <>
          {" · "}
          <a href={link} target="_blank" rel="noopener noreferrer">
            {t("bo.orders.followParcel")}
          </a>
        </>
      ) : null}
    </div>
  );
}
