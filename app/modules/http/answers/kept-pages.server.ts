import { gzipSync } from "node:zlib";
import type { ServerBuild } from "@remix-run/node";
import type { NextFunction, Request, RequestHandler, Response } from "express";
import { type RequestFacts, requestFacts } from "~/modules/log/logger.server";
import { countKeptPageAnswer } from "~/modules/metrics/count.server";
import { captureAnswer, sendStoredAnswer } from "./stored-answer.server";

/**
 * A viewer's own pages from memory while nothing they show can have changed (ADR 081).
 *
 * A page whose route says `handle.keepForViewer` (the cabinet's list and order page, the
 * back-office work list) is a function of the request — address, cookies, host — of the rows the
 * database holds, of the staff's translations and of the clock. Its answer is kept under the first
 * three, with the database's snapshot and the translations' version it was made at:
 *
 * - the snapshot (`pg_current_snapshot()`, one statement of no cost) names every transaction that
 *   has committed; two equal snapshots see the same rows, and any write that commits anywhere —
 *   this process, another worker, the queue — makes the next one differ;
 * - the clock is what a page shows of "now" (an undo still open, the statistics' window, a
 *   session's or staff pass's end): a kept page answers for `seconds` at most.
 *
 * The key holds the whole Cookie header, so an answer is only ever given again to the browser it
 * was made for. Only a plain 200 is kept: one that sets a cookie (a toast being read, a session
 * being changed) or whose loaders met a failure they answered in place (`noteDegraded`) is not.
 * A kept answer goes out with the Content-Security-Policy it was made with: its body is the same
 * bytes, and its inline scripts carry that answer's nonce.
 */

/** Which routes' pages may be kept, and a pattern of their paths (with Remix's `.data` suffix). */
export interface KeptRoutes {
  ids: ReadonlySet<string>;
  pattern: RegExp | null;
}

export interface KeptPagesOptions {
  /** How long a kept answer may be given again, at most; 0 keeps nothing. */
  seconds: number;
  /** The database's snapshot, as text. */
  dataVersion: () => Promise<string>;
  /** The version of the staff's translations this process serves. */
  textsVersion: () => Promise<number | null>;
  /** The current build's keepable routes. */
  routes: () => KeptRoutes;
}

interface KeptPage {
  dataVersion: string;
  textsVersion: number | null;
  until: number;
  body: Buffer;
  /** Compressed when first asked for: most answers are never given twice. */
  gzip: Buffer | null;
  headers: Record<string, string>;
  routeId: string;
  role: RequestFacts["role"];
}

const MAX_PAGE_BYTES = 1024 * 1024;
const MAX_TOTAL_BYTES = 32 * 1024 * 1024;
/**
 * The headers of one answer, not of its page: the serving chain sets them anew for each request
 * (its id, the encoding and length of this body, the connection's). Every other header — the type,
 * the policy with the page's nonce, the cache rule, Remix's own (`X-Remix-Response` on a data
 * request) — is given again with the page.
 */
const ANSWER_HEADERS = new Set(["connection", "keep-alive", "date", "content-length", "content-encoding", "transfer-encoding", "x-request-id", "set-cookie", "etag"]);

/** The routes whose module's `handle` says `keepForViewer`, and one pattern of their full paths. */
export function keptRoutesOf(build: Pick<ServerBuild, "routes">): KeptRoutes {
  const routes = Object.values(build.routes);
  const ids = new Set(routes.filter((route) => (route.module.handle as { keepForViewer?: boolean } | undefined)?.keepForViewer).map((route) => route.id));
  const fullPath = (id: string): string[] => {
    const route = build.routes[id];
    if (!route) return [];
    return [...(route.parentId ? fullPath(route.parentId) : []), ...(route.path ? route.path.split("/") : [])].filter(Boolean);
  };
  const escape = (segment: string) => segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const sources = [...ids].map((id) =>
    fullPath(id)
      .map((segment) => (segment.startsWith(":") ? "[^/.]+" : escape(segment)))
      .join("/"),
  );
  return { ids, pattern: sources.length ? new RegExp(`^/(?:${sources.join("|")})(?:\\.data)?$`) : null };
}

export function keptPages(options: KeptPagesOptions): RequestHandler {
  const pages = new Map<string, KeptPage>();
  let totalBytes = 0;

  const forget = (key: string) => {
    const page = pages.get(key);
    if (!page) return;
    pages.delete(key);
    totalBytes -= page.body.length + (page.gzip?.length ?? 0);
  };
  const remember = (key: string, page: KeptPage) => {
    forget(key);
    pages.set(key, page);
    totalBytes += page.body.length;
    // The oldest first out, so memory stays bounded whatever is asked for.
    for (const oldest of pages.keys()) {
      if (totalBytes <= MAX_TOTAL_BYTES) break;
      forget(oldest);
    }
  };

  return async (req: Request, res: Response, next: NextFunction) => {
    if (options.seconds <= 0 || (req.method !== "GET" && req.method !== "HEAD") || !req.headers.cookie) return next();
    const routes = options.routes();
    if (!routes.pattern?.test(req.path)) return next();
    const key = `${req.protocol}\n${req.get("host")}\n${req.originalUrl}\n${req.headers.cookie}`;
    const now = Date.now();
    let dataVersion: string;
    let textsVersion: number | null;
    try {
      [dataVersion, textsVersion] = await Promise.all([options.dataVersion(), options.textsVersion()]);
    } catch {
      // The database is away: the page says so itself.
      return next();
    }
    const page = pages.get(key);
    if (page && page.dataVersion === dataVersion && page.textsVersion === textsVersion && page.until > now) {
      countKeptPageAnswer("memory");
      return send(req, res, page);
    }
    forget(key);
    countKeptPageAnswer("made");
    // Only a GET's answer is kept: a HEAD's has no body to keep.
    if (req.method !== "GET") return next();
    const facts = requestFacts();
    captureAnswer(res, MAX_PAGE_BYTES, (body) => {
      const routeId = facts?.routeId;
      if (res.statusCode !== 200 || !routeId || !routes.ids.has(routeId) || facts?.degraded || res.hasHeader("Set-Cookie")) return;
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(res.getHeaders())) {
        if (value !== undefined && !ANSWER_HEADERS.has(name)) headers[name] = Array.isArray(value) ? value.join(", ") : String(value);
      }
      remember(key, { dataVersion, textsVersion, until: now + options.seconds * 1000, body, gzip: null, headers, routeId, role: facts?.role });
    });
    next();
  };

  function send(req: Request, res: Response, page: KeptPage) {
    const facts = requestFacts();
    if (facts) Object.assign(facts, { routeId: page.routeId, role: page.role });
    const gzip = () => {
      if (!page.gzip) {
        page.gzip = gzipSync(page.body);
        totalBytes += page.gzip.length;
      }
      return page.gzip;
    };
    sendStoredAnswer(req, res, { headers: page.headers, body: page.body, gzip });
  }
}
