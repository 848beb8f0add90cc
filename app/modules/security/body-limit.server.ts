import { routerPath } from "~/modules/http/request/router-path";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import type { NextFunction, Request as ExpressRequest, RequestHandler, Response as ExpressResponse } from "express";
import type { AppConfig, BodyLimits } from "~/modules/config/config.server";
import { getLocale } from "~/modules/http/request/request-context.server";
import { textTranslator } from "~/modules/translations/overrides.server";
import { formatFileSize } from "~/modules/i18n/file-size";
import { sendErrorPage } from "~/modules/http/answers/error-page.server";

/**
 * The one place that decides how large a request body may be (ADR 039), installed in server.mts
 * before Remix. Each kind of route has its limit (configuration `BODY_LIMIT_*`); the bytes are
 * counted as the HTTP parser hands them over, chunked or not, whatever `Content-Length` says. A
 * declared length above the limit is refused before a byte is read; a body that passes the limit
 * while it streams stops there: the application never sees another byte (nor the body's end, so
 * a cut body is never taken for a whole one), the sender gets 413 in its reader's language and
 * the connection is closed, and then the body the application was reading fails, so whatever it
 * had begun to store is thrown away by its own error path.
 */

export type BodyKind = keyof BodyLimits;

export interface BodyRule {
  kind: BodyKind;
  limit: number;
  /** Who reads the refusal: people get a page, machines (webhooks, cron, uploads) JSON. */
  reader: "person" | "machine";
  /** Where a person goes back to from the refusal page. */
  back: string;
}

const MULTIPART = /^multipart\/form-data\s*;/i;

/** The route's own path as the router matches it: without a trailing slash or a data suffix, in lower case. */
function routePath(path: string): string {
  return path.toLowerCase().replace(/\.data$/, "").replace(/\/+$/, "") || "/";
}

/** The body rule of a request, from what the router will do with it (path and content type). */
export function bodyRuleFor(path: string, contentType: string | undefined, limits: BodyLimits): BodyRule {
  const route = routePath(path);
  const multipart = MULTIPART.test(contentType ?? "");
  const rule = (kind: BodyKind, reader: BodyRule["reader"], back = "/"): BodyRule => ({ kind, limit: limits[kind], reader, back });
  if (route.startsWith("/api/webhooks/")) return rule("webhook", "machine");
  if (route === "/api/cron" || route.startsWith("/api/cron/")) return rule("cron", "machine");
  if (route === "/uploads/tus" || route.startsWith("/uploads/tus/")) return rule("tusChunk", "machine");
  if (route.startsWith("/uploads/")) return rule("form", "machine");
  if (route === "/auth" || route.startsWith("/auth/")) return rule("signIn", "person", "/auth");
  if (route === "/backoffice/login") return rule("signIn", "person", "/backoffice/login");
  if (multipart && route === "/order") return rule("uploadForm", "person", "/order");
  if (multipart && route === "/packer/logo") return rule("logo", "person", "/packer");
  if (multipart && route === "/send-test") return rule("fileServerTest", "person", "/send-test");
  return rule("form", "person");
}

/** The declared length when there is one and it is a number. */
function declaredLength(req: IncomingMessage): number | undefined {
  const header = req.headers["content-length"];
  if (header === undefined || !/^\s*\d+\s*$/.test(header)) return undefined;
  return Number(header);
}

/** Whether a body follows the headers at all (a length above zero, or chunks). */
function hasBody(req: IncomingMessage): boolean {
  return req.headers["transfer-encoding"] !== undefined || (declaredLength(req) ?? 0) > 0;
}

export class BodyTooLargeError extends Error {
  constructor(public readonly limit: number) {
    super(`The request body is larger than ${limit} bytes`);
    this.name = "BodyTooLargeError";
  }
}

/** The body was still arriving when the answer had been sent: nobody will read the rest. */
class BodyNotRead extends Error {
  constructor() {
    super("The answer was sent before the request body was read");
    this.name = "BodyNotRead";
  }
}

/**
 * A body must keep arriving (ADR 056): nothing for BODY_IDLE_MS, or less than BODY_MIN_BYTES_PER_S
 * on average once BODY_GRACE_MS have passed, and it is cut — a slow sender cannot hold a connection
 * for the hour a 100 MiB model on a 2 Mbit/s link may take.
 */
export const BODY_IDLE_MS = 30_000;
export const BODY_GRACE_MS = 60_000;
export const BODY_MIN_BYTES_PER_S = 1024;

export class BodyStalledError extends Error {
  constructor() {
    super("The request body stopped arriving");
    this.name = "BodyStalledError";
  }
}

/**
 * How a closing connection still reads a body nobody wants, so that its sender reaches the answer
 * (ADR 039): until the sender pauses for LINGER_IDLE_MS, has sent LINGER_BYTES more, or
 * LINGER_MAX_MS have passed — Apache's lingering close, by bytes as well as by time.
 */
const LINGER_IDLE_MS = 2000;
const LINGER_MAX_MS = 30_000;
const LINGER_BYTES = 16 * 1024 * 1024;

export interface BodyWatch {
  /** Bytes of the body that arrived and were counted. */
  readonly received: number;
  readonly exceeded: boolean;
}

/**
 * Counts the body of `req` as it arrives and keeps it within `limit`; `onExceeded` runs once, at
 * the first byte past it. From then on nothing more is read from the connection and nothing more
 * reaches the application. These rules keep a connection from reading what nobody wants:
 *
 * - An answer that starts before the whole body arrived closes the connection after it
 *   (`Connection: close`): Node would otherwise read and throw away the rest of the body to reach
 *   the next request on the connection — all 2 GiB of it.
 * - When the application stops reading (a parser gives up and cancels the body), the connection
 *   is not torn down under its answer: reading stops, the answer is sent, then the connection
 *   closes. Node would destroy the socket at once and the sender would see a reset, not the answer.
 * - When the answer has gone, a body still incomplete fails for whoever still reads it, so no
 *   reader waits forever.
 * - The connection is closed gently (`closeGently`), so the sender reads the answer.
 *
 * It works on the request as the HTTP parser fills it (`push`), so it counts what Remix's web
 * `Request` body, busboy or any other reader will see, chunked or not.
 */
export function watchBody(
  req: IncomingMessage,
  res: ServerResponse,
  limit: number,
  onExceeded: () => void,
  pace: { onStalled?: () => void; idleMs?: number; graceMs?: number; minBytesPerSecond?: number } = {},
): BodyWatch {
  const { idleMs = BODY_IDLE_MS, graceMs = BODY_GRACE_MS, minBytesPerSecond = BODY_MIN_BYTES_PER_S } = pace;
  const started = Date.now();
  let lastByteAt = started;
  let received = 0;
  let exceeded = false;
  let stopped = false;
  let lingered = -1;
  let lingerIdle: NodeJS.Timeout | undefined;
  let failure: Error | undefined;
  const socket = req.socket;

  const push = req.push;
  req.push = function countedPush(chunk: unknown, encoding?: BufferEncoding): boolean {
    if (lingered >= 0) {
      // After the answer: read and throw away what is still coming, while it keeps coming.
      if (chunk) lingered += (chunk as Uint8Array).length;
      if (lingered > LINGER_BYTES) socket.destroy();
      else lingerIdle?.refresh();
      return true;
    }
    // After a stop neither data nor the body's end reaches the reader: false tells the parser to pause.
    if (stopped) return false;
    if (chunk !== null && chunk !== undefined) {
      received += (chunk as Uint8Array).length;
      lastByteAt = Date.now();
      if (received > limit) {
        exceeded = stopped = true;
        failure = new BodyTooLargeError(limit);
        onExceeded();
        return false;
      }
    }
    return push.call(this, chunk, encoding);
  };

  const destroy = req.destroy;
  req.destroy = function deferredDestroy(this: IncomingMessage, error?: Error) {
    if (!socket || socket.destroyed || res.writableFinished) return destroy.call(this, error);
    if (req.complete) {
      // The whole body is here: let the rest drain, the connection can serve another request.
      req.resume();
      return this;
    }
    stopped = true;
    failure ??= error ?? new BodyNotRead();
    return this;
  };

  const writeHead = res.writeHead;
  res.writeHead = function closingWriteHead(this: ServerResponse, ...args: unknown[]) {
    if (!req.complete) res.shouldKeepAlive = false;
    return (writeHead as (...rest: unknown[]) => ServerResponse).apply(this, args);
  } as ServerResponse["writeHead"];

  const current = { linger: () => lingerAfterAnswer() };
  function lingerAfterAnswer(): boolean {
    if (req.complete || socket.destroyed) return false;
    stopped = true;
    lingered = 0;
    socket.end();
    socket.resume();
    lingerIdle = setTimeout(() => socket.destroy(), LINGER_IDLE_MS).unref();
    const ceiling = setTimeout(() => socket.destroy(), LINGER_MAX_MS).unref();
    socket.once("close", () => {
      clearTimeout(lingerIdle);
      clearTimeout(ceiling);
    });
    return true;
  }
  closeGently(socket, current);

  // The pace of the body, checked while it is incomplete.
  const pacing = setInterval(
    () => {
      if (req.complete || stopped || socket.destroyed) return clearInterval(pacing);
      const now = Date.now();
      const slow = now - started > graceMs && (received * 1000) / (now - started) < minBytesPerSecond;
      if (now - lastByteAt < idleMs && !slow) return;
      clearInterval(pacing);
      stopped = true;
      failure = new BodyStalledError();
      if (pace.onStalled && !res.headersSent) pace.onStalled();
      else socket.destroy();
    },
    Math.max(250, Math.min(idleMs, graceMs) / 4),
  );
  pacing.unref();

  const fail = () => {
    if (!req.complete && !req.destroyed) destroy.call(req, failure ?? new BodyNotRead());
  };
  res.once("close", () => {
    clearInterval(pacing);
    if (lingeringCloses.get(socket) === current) lingeringCloses.delete(socket);
    // While the connection lingers, the body fails once it is closed (destroying it sooner would close it).
    if (lingered >= 0 && !socket.destroyed) socket.once("close", fail);
    else fail();
  });

  return {
    get received() {
      return received;
    },
    get exceeded() {
      return exceeded;
    },
  };
}

/** The request being answered on each connection, which decides how the connection closes. */
const lingeringCloses = new WeakMap<Socket, { linger: () => boolean }>();
const gentleSockets = new WeakSet<Socket>();

/**
 * Node ends a `Connection: close` answer with `destroySoon`, which closes at once: with the sender
 * still sending, the kernel answers its next bytes with a reset, and a reset makes the sender's
 * system drop the answer it had not read yet. While a body is incomplete, the answer is followed
 * by a half-close instead, and what is already on its way is read and thrown away (at most
 * LINGER_BYTES, LINGER_IDLE_MS, LINGER_MAX_MS) before the connection closes. Installed once per connection (a
 * connection carries many requests); the request being answered decides.
 */
function closeGently(socket: Socket, current: { linger: () => boolean }): void {
  if (!gentleSockets.has(socket)) {
    gentleSockets.add(socket);
    const destroySoon = socket.destroySoon;
    socket.destroySoon = function lingeringClose(this: Socket) {
      if (lingeringCloses.get(this)?.linger()) return;
      destroySoon.call(this);
    };
  }
  lingeringCloses.set(socket, current);
}

/** A web request with only what the language choice reads: the path, the host and the cookie. */
function languageRequest(req: ExpressRequest): Request {
  const headers = new Headers();
  const host = req.get("host") ?? "localhost";
  headers.set("Host", host);
  const cookie = req.get("cookie");
  if (cookie) headers.set("Cookie", cookie);
  return new Request(`http://${host}${req.path}`, { headers });
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The 413 answer in the reader's language: a page for people, JSON for machines. */
export async function tooLargeAnswer(req: ExpressRequest, res: ExpressResponse, rule: BodyRule): Promise<void> {
  let language = "ru";
  let title = "Слишком большой запрос / Request too large";
  let message = `Запрос слишком большой (не более ${rule.limit} байт). / The request is too large (at most ${rule.limit} bytes).`;
  let back = "Вернуться / Go back";
  try {
    language = (await getLocale(languageRequest(req))).language;
    const t = await textTranslator(language as Parameters<typeof textTranslator>[0]);
    title = t("answers.bodyTooLargeTitle");
    message = t("answers.bodyTooLarge", { limit: formatFileSize(rule.limit, language) });
    back = t("answers.back");
  } catch {
    // The texts could not be had (the database is away): the fixed bilingual sentence will do.
  }
  if (res.headersSent) return;
  res.status(413).setHeader("Content-Language", language);
  res.setHeader("Cache-Control", "no-store");
  if (rule.reader === "machine") {
    res.json({ error: "too_large", limit: rule.limit, message });
  } else {
    res
      .type("text/html; charset=utf-8")
      .send(
        `<!doctype html><html lang="${language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title></head>` +
          `<body><main><h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p><p><a href="${rule.back}">${escapeHtml(back)}</a></p></main></body></html>\n`,
      );
  }
  muteLateAnswer(res);
}

/** A body that stopped arriving: 408, for whoever is still listening, and the connection closes. */
async function stalledAnswer(req: ExpressRequest, res: ExpressResponse, rule: BodyRule): Promise<void> {
  res.setHeader("Connection", "close");
  if (rule.reader === "machine") res.status(408).json({ error: "timeout" });
  else await sendErrorPage(req, res, 408);
  muteLateAnswer(res);
}

/**
 * The route that was reading the body learns of the refusal when its body fails, and may still
 * answer (an error page, a redirect): that answer goes nowhere — the sender has ours — instead of
 * failing on headers already sent and filling the error log.
 */
function muteLateAnswer(res: ExpressResponse): void {
  const ignored = function (this: ExpressResponse) {
    return this;
  };
  Object.assign(res, { status: ignored, append: ignored, set: ignored, header: ignored, setHeader: ignored, writeHead: ignored, end: ignored, write: () => true, flushHeaders: () => undefined });
}

/** The middleware: one rule per request, a refusal up front when the declared length is already too much. */
export function bodyLimits(config: Pick<AppConfig, "bodyLimits">): RequestHandler {
  return (req: ExpressRequest, res: ExpressResponse, next: NextFunction) => {
    if (!hasBody(req)) return next();
    // The route that will read the body, as the router will match it (ADR 040), not the raw target.
    const rule = bodyRuleFor(routerPath(req.originalUrl) ?? req.path, req.get("content-type"), config.bodyLimits);
    const refuse = () => void tooLargeAnswer(req, res, rule);
    const declared = declaredLength(req);
    if (declared !== undefined && declared > rule.limit) {
      watchBody(req, res, 0, () => undefined);
      return refuse();
    }
    watchBody(req, res, rule.limit, refuse, { onStalled: () => void stalledAnswer(req, res, rule) });
    next();
  };
}
