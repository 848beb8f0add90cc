import { createHash } from "node:crypto";
import type { AppLoadContext, EntryContext } from "@remix-run/node";
import { isRouteErrorResponse, RemixServer } from "@remix-run/react";
import { renderToPipeableStream } from "react-dom/server";
import { DocumentFactsProvider } from "~/components/document-facts";
import { setsOnlyPageCookies } from "~/modules/http/answers/public-page-cache.server";
import { wholeDocument } from "~/modules/http/answers/whole-document.server";
import { getLocale } from "~/modules/http/request/request-context.server";
import { ServerTextsProvider } from "~/components/i18n/shared-texts";
import { shellTexts } from "~/modules/i18n/shell-texts.server";
import type { Messages } from "~/modules/i18n/translate";
import { logger } from "~/modules/log/logger.server";
import { reportProblemsTo } from "~/modules/log/report-problem";
import { textsOfKey } from "~/modules/translations/overrides.server";

// A problem found while a page renders (a missing text) is a log line with its request's id, not a console line.
reportProblemsTo(logger.error);

const ABORT_DELAY = 5_000;
export const streamTimeout = ABORT_DELAY;

/** The 503 answer of resource routes while the database is away, in the reader's language (server.mts). */
export { outageAnswer } from "~/modules/http/answers/answers.server";

/** How long a browser or proxy may reuse a public page before asking again (with its ETag). */
const PUBLIC_MAX_AGE_SECONDS = 60;

export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  const { cspNonce: nonce, requestId } = loadContext;
  const shared = isSharedPage(request, responseStatusCode, responseHeaders, remixContext);
  const texts = await documentTexts(remixContext);
  // A document whose root loader failed has no texts' key: it renders with the bundled shell texts
  // of the request's language (ADR 046); getLocale never touches the database.
  const language = texts ? undefined : (await getLocale(request, loadContext)).language;

  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    const { pipe, abort } = renderToPipeableStream(
      <DocumentFactsProvider value={{ nonce, requestId, language }}>
        <ServerTextsProvider value={texts ?? shellTexts(language)}>
          <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY} nonce={nonce} />
        </ServerTextsProvider>
      </DocumentFactsProvider>,
      {
        nonce,
        // The whole document, sent at once. No page waits for deferred data, so the shell is all of
        // it but the loader data's script; streamed, it left React in ~2 KB pieces, each its own
        // stream hop, gzip flush and socket write (bench/RESULTS.md, "Personal pages").
        onAllReady() {
          shellRendered = true;
          responseHeaders.set("Content-Type", "text/html; charset=utf-8");
          const html = wholeDocument(pipe);
          if (shared && responseStatusCode === 200) {
            resolve(html.then((bytes) => withValidator(request, bytes.toString("utf8"), responseHeaders, nonce)));
            return;
          }
          resolve(html.then((bytes) => new Response(bytes, { headers: responseHeaders, status: responseStatusCode })));
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) logger.error(error);
        },
      },
    );
    setTimeout(abort, ABORT_DELAY);
  });
}

/**
 * The shared interface texts of the root loader's key, from memory: the document renders with them,
 * while its loader data (encoded into the page) carries only the key (ADR 034).
 */
async function documentTexts(context: EntryContext): Promise<Messages | undefined> {
  const root = context.staticHandlerContext.loaderData.root as { i18n?: { textsKey?: string } } | undefined;
  const key = root?.i18n?.textsKey;
  return key ? (await textsOfKey(key))?.messages : undefined;
}

/**
 * A page that is the same for every anonymous visitor of its language and market (the landing and
 * legal pages, `handle.publicPage`): no signed-in user, nothing of the visitor's shown (`personal`
 * in the page's data), a plain GET, and no cookie being set but the page cookies themselves — a language URL (`/de`) saves its language for the visitor, and the page
 * is the same whatever the visitor had saved (ADR 048).
 */
function isSharedPage(request: Request, status: number, headers: Headers, context: EntryContext): boolean {
  if (request.method !== "GET" || status !== 200 || !setsOnlyPageCookies(headers.getSetCookie())) return false;
  const { matches, loaderData } = context.staticHandlerContext;
  const root = loaderData.root as { user?: unknown } | undefined;
  if (!root || root.user) return false;
  const leaf = matches[matches.length - 1];
  // A public page that this time shows something of its visitor (the orders the browser left waiting) is theirs alone.
  if (!leaf || (loaderData[leaf.route.id] as { personal?: boolean } | undefined)?.personal) return false;
  return Boolean((context.routeModules[leaf.route.id]?.handle as { publicPage?: boolean } | undefined)?.publicPage);
}

/**
 * A public page with an ETag and a short public lifetime; a request that already holds this version
 * gets 304 and no body. The ETag is the hash of the page without its nonce, which changes on every
 * answer while the page does not (the 304 keeps the stored page's own policy, see serving-headers).
 */
async function withValidator(request: Request, html: string, headers: Headers, nonce: string): Promise<Response> {
  const etag = `"${createHash("sha256").update(nonce ? html.replaceAll(nonce, "") : html).digest("base64url").slice(0, 27)}"`;
  headers.set("ETag", etag);
  // The same body for everyone, but an answer that sets a cookie is that visitor's: no shared cache
  // may keep it (nor hand its cookie on), the visitor's browser may.
  headers.set("Cache-Control", `${headers.has("Set-Cookie") ? "private" : "public"}, max-age=${PUBLIC_MAX_AGE_SECONDS}`);
  // The language may come from a cookie (ADR 008): a shared cache must not hand one visitor's language to another.
  headers.set("Vary", "Cookie");
  const held = request.headers.get("If-None-Match");
  if (held && held.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag)) {
    headers.delete("Content-Type");
    return new Response(null, { status: 304, headers });
  }
  return new Response(html, { status: 200, headers });
}

/**
 * The error log is for errors (ADR 056): a visitor's mistake that reaches the router — a method no
 * route takes (`OPTIONS /`, `POST /privacy`), a path no route serves — is a 4xx, logged at info
 * without a stack; anything else is an error.
 */
export function handleError(error: unknown, { request }: { request: Request }) {
  if (request.signal.aborted) return;
  if (isRouteErrorResponse(error) && error.status < 500) {
    logger.info({ status: error.status, cause: (error as { error?: Error }).error?.message ?? error.statusText }, "visitor error");
    return;
  }
  logger.error(error);
}
