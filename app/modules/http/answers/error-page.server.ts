import type { ServerBuild } from "@remix-run/node";
import type { ErrorRequestHandler, Request as ExpressRequest, RequestHandler, Response as ExpressResponse } from "express";
import type { Language } from "~/modules/i18n/languages";
import type { Translate } from "~/modules/i18n/translate";
import { logger } from "~/modules/log/logger.server";
import { textTranslator } from "~/modules/translations/overrides.server";
import { getLocale } from "../request/request-context.server";
import { isMalformedHost, isMalformedTarget } from "../request/router-path";

/**
 * The answers the HTTP server gives itself, before or after Remix (ADR 040): a target that cannot be
 * decoded (`/%`, `/build/%`, `?q=%zz`) gets the product's 400 page, and any error that reaches the end
 * of the middleware chain gets a plain page with the status's words and the request's id — never
 * express's own page, which shows the stack and the install paths outside production mode. Both speak
 * the reader's language (path, saved choice, market) and say what the shared error boundary says.
 */

/** The error boundary's texts for a status (app/components/error-boundary.tsx). */
function pageKey(status: number): string {
  if (status === 403) return "forbidden";
  if (status === 404) return "notFound";
  if (status === 429) return "tooMany";
  if (status === 413) return "tooLarge";
  if (status === 409) return "conflict";
  if (status === 503) return "unavailable";
  return status >= 500 ? "unexpected" : "badRequest";
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/** The stylesheets every page links (the root route's `links`), so the page looks like the others. */
export function stylesheetsOf(build: ServerBuild): string[] {
  const links = (build.routes.root?.module as { links?: () => Array<{ rel?: string; href?: string }> } | undefined)?.links?.() ?? [];
  return links.filter((link) => link.rel === "stylesheet" && typeof link.href === "string").map((link) => link.href!);
}

/** The visitor's language, read as every page reads it; the target may be one the URL parser refuses. */
async function languageOf(req: ExpressRequest): Promise<Language> {
  const host = req.get("host") ?? "localhost";
  let url: URL;
  try {
    url = new URL(`http://${host}${req.originalUrl.startsWith("/") ? req.originalUrl : "/"}`);
  } catch {
    url = new URL("http://localhost/");
  }
  const headers = new Headers({ Host: host });
  const cookie = req.get("cookie");
  if (cookie) headers.set("Cookie", cookie);
  return (await getLocale(new Request(url, { headers }))).language;
}

async function translatorOf(req: ExpressRequest): Promise<{ language: Language; t: Translate } | null> {
  try {
    const language = await languageOf(req);
    return { language, t: await textTranslator(language) };
  } catch (error) {
    logger.warn({ cause: error instanceof Error ? error.message : String(error) }, "error page: texts unavailable");
    return null;
  }
}

/** Sends the page (or JSON to a client that asks only for JSON) for `status`; never throws. */
export async function sendErrorPage(req: ExpressRequest, res: ExpressResponse, status: number, stylesheets: readonly string[] = []): Promise<void> {
  const key = pageKey(status);
  const requestId = String(res.getHeader("X-Request-Id") ?? "");
  const texts = await translatorOf(req);
  const title = texts ? texts.t(`errors.${key}.title`) : status >= 500 ? "Ошибка сервера / Server error" : "Некорректный запрос / Bad request";
  const text = texts ? texts.t(`errors.${key}.text`) : "";
  if (res.headersSent) return;
  res.status(status);
  res.setHeader("Cache-Control", "no-store");
  if (texts) res.setHeader("Content-Language", texts.language);
  if (req.accepts(["html", "json"]) === "json") {
    res.json({ error: key, message: text ? `${title}. ${text}` : title });
    return;
  }
  const reference = texts && requestId ? texts.t("errors.reference", { id: requestId }) : requestId;
  const home = texts ? texts.t("errors.home") : "/";
  res.type("html").send(plainPageHtml({ language: texts?.language ?? "ru", title, text, reference: reference ? { requestId, text: reference } : null, link: { href: "/", label: home }, stylesheets }));
}

export interface PlainPage {
  language: Language;
  title: string;
  text: string;
  /** The request's id, for a message to support. */
  reference: { requestId: string; text: string } | null;
  /** The way on: home, or the page the visitor came from. */
  link: { href: string; label: string };
  stylesheets: readonly string[];
}

/** A page of its own, outside Remix's documents: the error boundary's markup (a title, a sentence, a way on) with the site's styles. */
export function plainPageHtml(page: PlainPage): string {
  return [
    "<!DOCTYPE html>",
    `<html lang="${escapeHtml(page.language)}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">`,
    `<title>${escapeHtml(page.title)}</title>`,
    ...page.stylesheets.map((href) => `<link rel="stylesheet" href="${escapeHtml(href)}">`),
    `</head><body><main id="main"><section class="container error-page"><h1>${escapeHtml(page.title)}</h1>`,
    page.text ? `<p>${escapeHtml(page.text)}</p>` : "",
    page.reference ? `<p class="error-reference" data-request-id="${escapeHtml(page.reference.requestId)}">${escapeHtml(page.reference.text)}</p>` : "",
    `<a class="button" href="${escapeHtml(page.link.href)}">${escapeHtml(page.link.label)}</a></section></main></body></html>`,
  ].join("");
}

/**
 * A target whose percent-encoding does not decode, or a Host with a port that is not one, is answered
 * 400 before anything tries to decode it or build a URL from it.
 */
export function malformedTargets(options: { stylesheets: () => readonly string[] }): RequestHandler {
  return (req, res, next) => {
    if (!isMalformedTarget(req.originalUrl) && !isMalformedHost(req.get("host"))) return next();
    sendErrorPage(req, res, 400, options.stylesheets()).catch(next);
  };
}

/** The status an error asks for (express and its middleware set `status`), else 500. */
function statusOf(error: unknown): number {
  const status = Number((error as { status?: unknown; statusCode?: unknown } | null)?.status ?? (error as { statusCode?: unknown } | null)?.statusCode);
  return Number.isInteger(status) && status >= 400 && status <= 599 ? status : 500;
}

/**
 * The last handler of the chain: whatever failed is logged once, with the request's id (the log's
 * context carries it), and the visitor gets the plain page of its status. An answer already under way
 * can only be cut off.
 */
export function finalErrorHandler(options: { stylesheets: () => readonly string[] }): ErrorRequestHandler {
  return (error: unknown, req, res, _next) => {
    const status = statusOf(error);
    const requestId = String(res.getHeader("X-Request-Id") ?? "");
    if (status >= 500) logger.error({ err: error, requestId }, "request error");
    else logger.info({ requestId, status, cause: error instanceof Error ? error.message : String(error) }, "request refused");
    if (res.headersSent) {
      res.destroy();
      return;
    }
    sendErrorPage(req, res, status, options.stylesheets()).catch(() => res.destroy());
  };
}
