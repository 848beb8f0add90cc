import type { AppLoadContext, Cookie } from "@remix-run/node";
import { hasGatePass } from "~/modules/auth/gate.server";
import { getSessionUser, type SessionUser } from "~/modules/auth/session.server";
import { type Staff, staffOf } from "~/modules/auth/staff";
import { type Translator, translatorFor } from "~/modules/i18n/i18n.server";
import { chooseLanguage, type Language } from "~/modules/i18n/languages";
import { type Market, MARKET_TRAITS } from "~/modules/market/market";
import { getMarket } from "~/modules/market/market.server";
import { readBrowserOrderIds, readCurrentOrderId } from "~/modules/orders/browser-orders.server";
import { cookies } from "./cookies.server";

/** What the HTTP server (server.mts, `getLoadContext`) passes to every loader and action: Remix's `AppLoadContext`. */
export interface LoadContext {
  clientIp: string;
  /** A client-side data request (`….data`), not a document: the browser already runs the app. */
  dataRequest?: boolean;
  /** This answer's Content-Security-Policy nonce (serving-headers.server). */
  cspNonce: string;
  /** This request's id, sent back as X-Request-Id and shown on error pages. */
  requestId: string;
  /**
   * Resolves once the connection has taken what the answer wrote so far. Remix writes a streamed
   * body as fast as it is made, so a long stream (a data export) waits on this before making more.
   */
  answerDrained?: () => Promise<void>;
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
 * `hasGatePass`, `getMarket`, the order cookies, the load context's client address) are imported
 * nowhere else in `app/`, and no other module parses a cookie of the request (eslint.config.js).
 * Code that runs before Remix (body limits, the error page, the outage answer) calls
 * `getLocale(request)` without a context.
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

/** What this browser keeps in its plain cookies: the language it chose, the cookie notice's answer, a partner's code. */
export interface BrowserChoices {
  /** The language chosen in the picker or by opening `/{lang}` (any string: checked where it is used). */
  savedLanguage: string | null;
  cookieConsent: boolean;
  /** The partner whose link this browser opened (ADR 044). */
  partnerCode: string | null;
  /** The packing station's label format (ADR 103): PDF when this workstation chose it, else HTML. */
  packerLabels: "html" | "pdf";
}

const viewers = new WeakMap<object, Promise<Viewer>>();
const choices = new WeakMap<object, Promise<BrowserChoices>>();
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
    const { savedLanguage } = await getBrowserChoices(request, context);
    const language = chooseLanguage({ pathname: new URL(request.url).pathname, saved: savedLanguage, marketDefault: MARKET_TRAITS[market].defaultLanguage });
    return { market, language };
  });
}

/** The browser's kept choices (no database): its language, cookie consent, partner code and packing station's label format. */
export function getBrowserChoices(request: Request, context?: AppLoadContext): Promise<BrowserChoices> {
  return once(choices, request, context, async () => {
    const header = request.headers.get("Cookie");
    const [language, consent, partner, labels] = await Promise.all([
      cookies.language().parse(header),
      cookies.cookieConsent().parse(header),
      cookies.partnerCode().parse(header),
      cookies.packerLabels().parse(header),
    ]);
    return {
      savedLanguage: typeof language === "string" ? language : null,
      cookieConsent: Boolean(consent),
      partnerCode: typeof partner === "string" ? partner : null,
      packerLabels: labels === "pdf" ? "pdf" : "html",
    };
  });
}

/**
 * A one-time value a redirect left in `cookie` (a toast, the last deletion's errors), and the
 * header that forgets it; null when there is none.
 */
export async function takeFlash(request: Request, cookie: Cookie): Promise<{ value: unknown; headers: Headers }> {
  const value: unknown = await cookie.parse(request.headers.get("Cookie"));
  const headers = new Headers();
  if (value) headers.append("Set-Cookie", await cookie.serialize("", { maxAge: 0 }));
  return { value: value ?? null, headers };
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
