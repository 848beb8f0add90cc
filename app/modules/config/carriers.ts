/**
 * Shipping carriers (ADR 062): staff name one beside the tracking number when an order is shipped,
 * and the doctor gets a link to follow the parcel (status mail, cabinet). Configured by
 * `SHIPPING_CARRIERS` ("id|Name|https://…{number}" entries separated by ";"); without it, the list
 * below. A carrier without a URL template gives no link. Pure: used on both sides.
 */
export interface Carrier {
  id: string;
  name: string;
  /** The tracking page, `{number}` where the tracking number goes; "" when the carrier has none. */
  trackingUrl: string;
}

export const DEFAULT_CARRIERS: readonly Carrier[] = [
  { id: "cdek", name: "СДЭК", trackingUrl: "https://www.cdek.ru/ru/tracking/?order_id={number}" },
  { id: "russian_post", name: "Почта России", trackingUrl: "https://www.pochta.ru/tracking?barcode={number}" },
  { id: "boxberry", name: "Boxberry", trackingUrl: "https://boxberry.ru/tracking-page?id={number}" },
  { id: "dhl", name: "DHL Express", trackingUrl: "https://www.dhl.com/global-en/home/tracking/tracking-express.html?submit=1&tracking-id={number}" },
  { id: "ups", name: "UPS", trackingUrl: "https://www.ups.com/track?tracknum={number}" },
  { id: "fedex", name: "FedEx", trackingUrl: "https://www.fedex.com/fedextrack/?trknbr={number}" },
  { id: "other", name: "—", trackingUrl: "" },
];

const ID = /^[a-z0-9_-]{1,40}$/;

/** The carriers of `SHIPPING_CARRIERS`; throws with the entry that cannot be read. */
export function parseCarriers(text: string): Carrier[] {
  return text
    .split(";")
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => {
      const [id = "", name = "", trackingUrl = ""] = entry.split("|").map((part) => part.trim());
      if (!ID.test(id) || !name) throw new Error(`SHIPPING_CARRIERS: "${entry}" is not "id|Name|https://…{number}"`);
      if (trackingUrl && (!/^https:\/\/[^\s]+$/.test(trackingUrl) || !trackingUrl.includes("{number}"))) throw new Error(`SHIPPING_CARRIERS: the URL of "${id}" must be https and hold {number}`);
      return { id, name, trackingUrl };
    });
}

/** The page that follows a parcel, or null (no carrier, an unknown one, or one without a page). */
export function trackingLink(carriers: readonly Carrier[], carrierId: string | null | undefined, trackingNumber: string | null | undefined): string | null {
  const carrier = carriers.find((item) => item.id === carrierId);
  if (!carrier?.trackingUrl || !trackingNumber) return null;
  return carrier.trackingUrl.replaceAll("{number}", encodeURIComponent(trackingNumber));
}

/** A carrier's name as shown beside the tracking number, or null. */
export const carrierName = (carriers: readonly Carrier[], carrierId: string | null | undefined): string | null => {
  const carrier = carriers.find((item) => item.id === carrierId);
  return carrier && carrier.trackingUrl ? carrier.name : null;
};
