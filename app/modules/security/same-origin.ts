import { routerPath } from "~/modules/http/request/router-path";

/**
 * Cross-site request check (DESIGN §4.22): every request that can change state must come from
 * the site itself. Webhooks and the cron route carry their own signature or secret instead.
 *
 * The exemption is decided on the path the router will match (`routerPath`: dot segments resolved,
 * percent-decoded, any case), not on the raw target: `/api/webhooks/../../language` is the language
 * action, and is checked as such (ADR 040).
 */
export const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);
export const CROSS_SITE_EXEMPT_PREFIXES = ["/api/webhooks/", "/api/cron"];

export interface RequestFacts {
  method: string;
  /** The request target as sent (`req.originalUrl`): path and query, not yet normalised. */
  path: string;
  /** Scheme and host the browser used, e.g. "https://aligners.ru". */
  siteOrigin: string;
  origin: string | null;
  secFetchSite: string | null;
}

/** Whether the router will hand the target to a machine route, which its own secret guards. */
export function isCrossSiteExempt(rawTarget: string): boolean {
  const path = routerPath(rawTarget);
  return path !== null && CROSS_SITE_EXEMPT_PREFIXES.some((prefix) => path.startsWith(prefix));
}

export function isCrossSiteRefused(request: RequestFacts): boolean {
  if (SAFE_METHODS.has(request.method.toUpperCase())) return false;
  if (isCrossSiteExempt(request.path)) return false;
  if (request.origin && request.origin !== "null") return request.origin.toLowerCase() !== request.siteOrigin.toLowerCase();
  if (request.secFetchSite) return request.secFetchSite !== "same-origin";
  // Neither header: no browser we support sends a form like that. Refuse.
  return true;
}

/**
 * Whether the router may be shown the `Origin` of a request this check let through. Remix repeats a
 * narrower check of its own on every page's POST (the Origin's host against the Host header, exactly)
 * and answers what it refuses with a 500 and an error in the log: a foreign Origin on a machine path
 * that no route serves, `Origin: null`, a Host in capitals. The decision is this module's; past it the
 * header is kept only where both agree, so no request can turn into a 500 there.
 */
export function mayForwardOrigin(request: RequestFacts & { host: string | null }): boolean {
  if (SAFE_METHODS.has(request.method.toUpperCase()) || !request.origin) return true;
  if (isCrossSiteExempt(request.path) || request.origin === "null") return false;
  try {
    return new URL(request.origin).host === request.host;
  } catch {
    return false;
  }
}
