import { getConfig } from "~/modules/config/config.server";
import { type Market, marketForHost } from "./market";

/** The market of a request, from its Host header (DESIGN §3). */
export function getMarket(request: Request): Market {
  const host = request.headers.get("Host") ?? new URL(request.url).host;
  return marketForHost(host, getConfig().internationalHosts);
}

export function getContacts(market: Market) {
  return getConfig().contacts[market];
}

/**
 * The public origin of a market, from configuration only (DESIGN §3): sign-in links, mail, payment
 * return URLs, partner links and canonical tags never take their host from the request.
 */
export function publicOrigin(market: Market): string {
  return getConfig().publicOrigins[market];
}
