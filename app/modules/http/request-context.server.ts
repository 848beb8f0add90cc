import type { AppLoadContext } from "@remix-run/node";
import { hasGatePass } from "~/modules/auth/gate.server";
import { getSessionUser, type SessionUser } from "~/modules/auth/session.server";
import { type Staff, staffOf } from "~/modules/auth/staff";
import { getLanguage, type Translator, translatorFor } from "~/modules/i18n/i18n.server";
import type { Language } from "~/modules/i18n/languages";
import type { Market } from "~/modules/market/market";
import { getMarket } from "~/modules/market/market.server";
import { readBrowserOrderIds, readCurrentOrderId } from "~/modules/orders/browser-orders.server";

/** What the HTTP server (server.mts, `getLoadContext`) passes to every loader and action: Remix's `AppLoadContext`. */
export interface LoadContext {
  clientIp: string;
  /** A client-side data request (`….data`), not a document: the browser already runs the app. */
  dataRequest?: boolean;
  /** This answer's Content-Security-Policy nonce (serving-headers.server). */
  cspNonce: string;
  /** This request's id, sent back as X-Request-Id and shown on error pages. */
  requestId: string;
}

/**
 * The facts of one request (docs/decisions/050-one-request-context-and-one-route-shape.md), each
 * read once however many loaders, guards and helpers of the request ask: a document request runs
 * the root's loader and the page's, and both want the same user. They are kept per request: on the
 * load context the HTTP server makes for each request and Remix hands to all its loaders and its
 * action (each loader gets a `Request` object of its own), else on the `Request` when a caller has
 * no context. They are the facts as the request arrived: an action that changes them (sign-in,
 * sign-out, roles) answers with a redirect, and the next request reads them afresh.
 *
 * This module is the only reader of request facts: the readers it stands on (`getSessionUser`,
 * `hasGatePass`, `getMarket`, `getLanguage`, the order cookies, the load context's client address)
 * are imported nowhere else in `app/` (eslint.config.js). Code that runs before Remix (body limits,
 * the error page, the outage answer) calls `getLocale(request)` without a context.
 */

/** Who is asking: the session's user, staff, the gate passes and this browser's orders. */
export interface Viewer {
  user: SessionUser | null;
  staff: Staff | null;
  isStaff: boolean;
  passes: { backoffice: boolean; packer: boolean };
  /** The orders this browser created (the signed cookie's list). */
  browserOrderIds: string[];
  /** The wizard's current order in this browser, if any. */
  currentOrderId: string | null;
}

/** Where and in which language: from the host and the path or the language cookie; no database. */
export interface Locale {
  market: Market;
  language: Language;
}

export interface RequestContext extends Locale {
  viewer: Viewer;
  /** The client's address as the HTTP server saw it (trusted proxies applied). */
  clientAddress: string;
}

const viewers = new WeakMap<object, Promise<Viewer>>();
const locales = new WeakMap<object, Promise<Locale>>();
const translators = new WeakMap<object, Promise<Translator>>();

function once<T>(cache: WeakMap<object, Promise<T>>, request: Request, context: AppLoadContext | undefined, resolve: () => Promise<T>): Promise<T> {
  const key = typeof context === "object" && context !== null ? context : request;
  let found = cache.get(key);
  if (!found) {
    found = resolve();
    cache.set(key, found);
  }
  return found;
}

/** The viewer of a request: one session lookup, whatever asks for it. */
export function getViewer(request: Request, context?: AppLoadContext): Promise<Viewer> {
  return once(viewers, request, context, async () => {
    const [user, backoffice, packer, browserOrderIds, currentOrderId] = await Promise.all([
      getSessionUser(request),
      hasGatePass("backoffice", request),
      hasGatePass("packer", request),
      readBrowserOrderIds(request),
      readCurrentOrderId(request),
    ]);
    const staff = staffOf(user, backoffice, getClientAddress(context));
    return { user, staff, isStaff: Boolean(staff), passes: { backoffice, packer }, browserOrderIds, currentOrderId };
  });
}

/** The market and language of a request; they never touch the database, so a page's shell can show them when it is away. */
export function getLocale(request: Request, context?: AppLoadContext): Promise<Locale> {
  return once(locales, request, context, async () => {
    const market = getMarket(request);
    return { market, language: await getLanguage(request, market) };
  });
}

/** The translator of the request's language, made on first use (most pages need none on the server). */
export function getRequestTranslator(request: Request, context: AppLoadContext): Promise<Translator> {
  return once(translators, request, context, async () => translatorFor((await getLocale(request, context)).language));
}

/** Everything a loader or action usually needs about its request, resolved once. */
export async function getRequestContext(request: Request, context: AppLoadContext): Promise<RequestContext> {
  const [viewer, locale] = await Promise.all([getViewer(request, context), getLocale(request, context)]);
  return { ...locale, viewer, clientAddress: getClientAddress(context) };
}

/** The client's address (rate limits, upload allowances, the password gate's actor label). */
export function getClientAddress(context: AppLoadContext | undefined): string {
  return context?.clientIp || "unknown";
}

/** A client-side data request (`….data`) rather than a document. */
export function isDataRequest(context: AppLoadContext): boolean {
  return Boolean(context?.dataRequest);
}
