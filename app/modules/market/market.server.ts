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
