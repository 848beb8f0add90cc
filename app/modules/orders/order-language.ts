import type { Order } from "~db/schema";
import type { Language } from "~/modules/i18n/languages";
import { MARKET_TRAITS } from "~/modules/market/market";

/** The language an order was made in (its mails use it, ADR 024), else its market's. */
export function orderLanguage(order: Pick<Order, "language" | "market">): Language {
  return order.language ?? MARKET_TRAITS[order.market].defaultLanguage;
}

/**
 * The language of what is sent to the payment provider (ADR 043): the order's own on the
 * international market; Russian on the domestic one, whose receipt is a Russian fiscal document.
 */
export function providerLanguage(order: Pick<Order, "language" | "market">): Language {
  return order.market === "domestic" ? "ru" : orderLanguage(order);
}
