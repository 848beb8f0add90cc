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
  if (!rawTarget.startsWith("/") || routerPath(rawTarget) === null) return true;
  const query = rawTarget.indexOf("?");
  return query !== -1 && !decodes(rawTarget.slice(query + 1));
}

/**
 * Whether a Host header names a port that is not one (`:99999`, `:0x50`, `:`): the adapter builds the
 * request's URL from the Host's port, and such a URL does not parse — a 500 for anyone who sends it.
 */
export function isMalformedHost(hostHeader: string | null | undefined): boolean {
  const host = (hostHeader ?? "").trim();
  const colon = host.indexOf(":");
  const nameEnd = host.startsWith("[") ? host.indexOf("]") + 1 : colon === -1 ? host.length : colon;
  if (nameEnd === 0 && host !== "") return true;
  const rest = host.slice(nameEnd);
  if (rest === "") return false;
  const port = /^:(\d{1,5})$/.exec(rest)?.[1];
  return port === undefined || Number(port) > 65535;
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
