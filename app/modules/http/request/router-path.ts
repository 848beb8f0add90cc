/**
 * The request target as the router will read it (ADR 040). Express hands the raw target to its
 * middleware (`/api/webhooks/../../language`), while Remix builds the request's URL with the WHATWG
 * URL parser — which resolves `.` and `..` segments (also written `%2e`), turns `\` into `/` and drops
 * tabs and newlines — and then matches routes on each segment percent-decoded, an encoded slash kept
 * as `%2F` inside its segment, ignoring case. A decision about which route will answer (the same-site
 * exemption of the machine routes) is taken on this path, never on the raw one.
 */

/**
 * Whether a request target cannot be served: its path or query holds a percent sign that does not
 * decode (`%`, `%zz`, a cut UTF-8 sequence), or it is not a path at all (`*`, or the absolute form
 * `http://host/path` that only proxies are sent, from which the adapter would build an invalid URL).
 */
export function isMalformedTarget(rawTarget: string): boolean {
  // Past the leading slash the URL parser never fails (it encodes what it does not take as is), so
  // the target is servable exactly when its percent-encoding decodes; most targets hold no `%` at all.
  return !rawTarget.startsWith("/") || !decodes(rawTarget);
}

/**
 * Whether a Host header cannot be part of a URL (`localhost:99999`, `:0x50`, `a b`, `[::1`): the adapter
 * builds the request's URL from it, and such a URL does not parse — a 500 for anyone who sends it, on
 * the paths that answer any host too (the health check). Which names are served is the host check's.
 */
export function isMalformedHost(hostHeader: string | null | undefined): boolean {
  const host = (hostHeader ?? "").trim();
  return host !== "" && !URL.canParse(`http://${host}/`);
}

function decodes(text: string): boolean {
  if (!text.includes("%")) return true;
  try {
    decodeURIComponent(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * The path the router matches for a raw request target (`req.originalUrl`): dot segments resolved,
 * each segment percent-decoded (an encoded `/` stays `%2F`, so it never becomes a separator), in lower
 * case as routes match. Null when the target cannot be read as a path.
 */
export function routerPath(rawTarget: string): string | null {
  let pathname: string;
  try {
    // The same construction as @remix-run/express: scheme and host, then the target as sent.
    pathname = new URL(`http://router.invalid${rawTarget}`).pathname;
  } catch {
    return null;
  }
  try {
    return pathname
      .split("/")
      .map((segment) => decodeURIComponent(segment).replace(/\//g, "%2F"))
      .join("/")
      .toLowerCase();
  } catch {
    return null;
  }
}
