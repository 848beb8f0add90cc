/**
 * The `name=value` pairs of a `Cookie` header as the browser sent them (values not decoded); a pair
 * without "=" is all name. For code that reads or rewrites the header itself rather than one cookie.
 */
export function cookiePairs(header: string | null | undefined): Array<[name: string, value: string]> {
  const pairs: Array<[string, string]> = [];
  for (const part of (header ?? "").split(";")) {
    const pair = part.trim();
    if (!pair) continue;
    const at = pair.indexOf("=");
    pairs.push(at < 0 ? [pair, ""] : [pair.slice(0, at).trim(), pair.slice(at + 1).trim()]);
  }
  return pairs;
}
