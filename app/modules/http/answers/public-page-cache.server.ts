import { gzipSync } from "node:zlib";
import type { NextFunction, Request, RequestHandler, Response } from "express";
import { requestFacts } from "~/modules/log/logger.server";
import { cookiePairs } from "../request/cookie-header";
import { captureAnswer, sendStoredAnswer } from "./stored-answer.server";

/**
 * Public pages from memory (ADR 032). The landing in each language and the legal pages are the same
 * for every anonymous visitor of a host (market), path, language cookie and cookie-notice answer, and
 * the translations' version: entry.server marks such an answer with an ETag and
 * `Cache-Control: public`. The first answer is kept here — its HTML and a gzip of it — and the
 * following requests with the same key get it without Remix, or 304 when they hold its ETag.
 *
 * Only requests that carry no other cookie and no query are looked up, so a signed-in visitor, a
 * toast, a partner link or a staff gate never meet a kept page. A page with the answer's nonce in it
 * (an inline script) is not kept: its nonce must be new every time. A staff edit of a translation
 * bumps the version in PostgreSQL; every app process sees it within the translations' check interval
 * and makes its pages again.
 */

/** The cookies a public page may depend on; any other cookie means a page made for that visitor. */
const PAGE_COOKIES = new Set(["lng", "cookie_ok"]);

/**
 * Whether an answer sets no cookie but page cookies (a language URL saving its language, ADR 048):
 * such a page is still the same for everyone, and its `Set-Cookie` is kept with it. The key holds
 * the page cookies the request sent, so a visitor who already has that language gets the kept
 * answer without the cookie, one who has another or none the one with it. The cookie carries
 * `Max-Age`, never a date, so the kept header is exact on every answer.
 */
export function setsOnlyPageCookies(setCookies: readonly string[]): boolean {
  return setCookies.every((cookie) => PAGE_COOKIES.has(cookie.slice(0, cookie.indexOf("=")).trim()) && !/;\s*expires=/i.test(cookie));
}
const MAX_PAGES = 200;
const MAX_PAGE_BYTES = 512 * 1024;

interface KeptPage {
  version: number | null;
  html: Buffer;
  gzip: Buffer;
  headers: Record<string, string>;
  /** The page cookie this key's visitors are given with the page (a language URL's), or none. */
  setCookies: string[];
  routeId: string | undefined;
}

/** The key of a request that may be answered from memory, or null. */
function keyOf(req: Request): string | null {
  if (req.method !== "GET" && req.method !== "HEAD") return null;
  if (req.originalUrl.includes("?") || req.path.endsWith(".data")) return null;
  const kept: string[] = [];
  for (const [name, value] of cookiePairs(req.headers.cookie)) {
    if (!PAGE_COOKIES.has(name)) return null;
    kept.push(`${name}=${value}`);
  }
  return `${req.get("host")}\n${req.path}\n${kept.sort().join("; ")}`;
}

export function publicPageCache(options: { version: () => Promise<number | null> }): RequestHandler {
  const pages = new Map<string, KeptPage>();

  const remember = (key: string, page: KeptPage) => {
    pages.delete(key);
    pages.set(key, page);
    // The oldest first out: a crafted flood of cookie values cannot grow the map.
    if (pages.size > MAX_PAGES) pages.delete(pages.keys().next().value!);
  };

  return async (req: Request, res: Response, next: NextFunction) => {
    const key = keyOf(req);
    if (!key) return next();
    let version: number | null;
    try {
      version = await options.version();
    } catch {
      return next();
    }
    const page = pages.get(key);
    if (page && page.version === version) return send(req, res, page);
    if (page) pages.delete(key);
    // Only a GET's answer is kept: a HEAD's has no body to keep.
    if (req.method !== "GET") return next();
    const facts = requestFacts();
    captureAnswer(res, MAX_PAGE_BYTES, (html) => {
      if (res.statusCode !== 200 || !res.getHeader("ETag")) return;
      const setCookies = [res.getHeader("Set-Cookie") ?? []].flat().map(String);
      // Public, or private only for the page cookie it sets (entry.server, ADR 048).
      const policy = String(res.getHeader("Cache-Control") ?? "");
      if (!(/^public\b/.test(policy) && setCookies.length === 0) && !(/^private\b/.test(policy) && setCookies.length > 0 && setsOnlyPageCookies(setCookies))) return;
      if (html.length > MAX_PAGE_BYTES || html.includes(String(res.locals.cspNonce))) return;
      const headers: Record<string, string> = {};
      for (const name of ["Content-Type", "Cache-Control", "ETag", "Vary"]) {
        const value = res.getHeader(name);
        if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(", ") : String(value);
      }
      remember(key, { version, html, gzip: gzipSync(html), headers, setCookies, routeId: facts?.routeId });
    });
    next();
  };
}

function send(req: Request, res: Response, page: KeptPage) {
  const facts = requestFacts();
  if (facts) facts.routeId = page.routeId;
  if (page.setCookies.length) res.setHeader("Set-Cookie", page.setCookies);
  const held = req.get("if-none-match");
  if (held && held.split(",").some((tag) => tag.trim().replace(/^W\//, "") === page.headers.ETag)) {
    for (const [name, value] of Object.entries(page.headers)) if (name !== "Content-Type") res.setHeader(name, value);
    res.status(304).end();
    return;
  }
  sendStoredAnswer(req, res, { headers: page.headers, body: page.html, gzip: () => page.gzip });
}
