import type { HeadersFunction } from "@remix-run/node";

/**
 * The `headers` of a route whose action or loader may refuse with 429 (ADR 056): its `Retry-After`
 * reaches the answer. Remix keeps only the Set-Cookie of a route that declares no headers, so a
 * refusal's "come back in N seconds" would be lost on the way.
 */
export const refusalHeaders: HeadersFunction = ({ parentHeaders, loaderHeaders, actionHeaders, errorHeaders }) => {
  const headers = new Headers(parentHeaders);
  for (const source of [loaderHeaders, actionHeaders, errorHeaders]) {
    const retryAfter = source?.get("Retry-After");
    if (retryAfter) headers.set("Retry-After", retryAfter);
  }
  return headers;
};
