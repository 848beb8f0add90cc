import { languageFromPath } from "~/modules/i18n/languages";
import { isMalformedTarget } from "./router-path";

/**
 * Where a return address sent by a browser (`redirectTo`, `back`) may lead (ADR 083): every
 * redirect to such an address takes it through `localTarget`, once. A browser reads a Location with
 * the URL parser, so the address is read the same way first — dot segments resolved (`/.//x` is
 * `//x`), a backslash a slash — and then refused if it would leave the site: another origin, or a
 * path that starts with `//` once a language prefix is taken off (`/ru//evil.example` becomes
 * `//evil.example` when the language picker drops `ru`).
 */

const BASE = "http://target.invalid";

/**
 * The local path to redirect to (path, query and fragment, as the URL parser writes them); the
 * fallback when the address is absent or leads elsewhere; null when it is malformed — a control
 * character or one beyond ASCII (a browser sends every such character percent-encoded, and a header
 * cannot carry most of them), or a percent sign that does not decode. Null is the sender's mistake:
 * the caller answers 400.
 */
export function localTarget(to: unknown, fallback: string): string | null {
  if (typeof to !== "string" || !to.startsWith("/")) return fallback;
  if (/[^\x20-\x7e]/.test(to) || isMalformedTarget(to)) return null;
  const url = new URL(to, BASE);
  if (url.origin !== BASE) return fallback;
  const language = languageFromPath(url.pathname);
  const rest = language ? url.pathname.slice(language.length + 1) : url.pathname;
  if (rest.startsWith("//")) return fallback;
  return `${url.pathname}${url.search}${url.hash}`;
}
