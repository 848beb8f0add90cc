/**
 * Cross-site request check (DESIGN §4.22): every request that can change state must come from
 * the site itself. Webhooks and the cron route carry their own signature or secret instead.
 */
export const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);
export const CROSS_SITE_EXEMPT_PREFIXES = ["/api/webhooks/", "/api/cron"];

export interface RequestFacts {
  method: string;
  path: string;
  /** Scheme and host the browser used, e.g. "https://aligners.ru". */
  siteOrigin: string;
  origin: string | null;
  secFetchSite: string | null;
}

export function isCrossSiteRefused(request: RequestFacts): boolean {
  if (SAFE_METHODS.has(request.method.toUpperCase())) return false;
  if (CROSS_SITE_EXEMPT_PREFIXES.some((prefix) => request.path.startsWith(prefix))) return false;
  if (request.origin && request.origin !== "null") return request.origin.toLowerCase() !== request.siteOrigin.toLowerCase();
  if (request.secFetchSite) return request.secFetchSite !== "same-origin";
  // Neither header: no browser we support sends a form like that. Refuse.
  return true;
}
