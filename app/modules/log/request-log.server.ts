import { randomUUID } from "node:crypto";
import type { NextFunction, Request, RequestHandler, Response } from "express";
import { logger, withRequestFacts, type RequestFacts } from "./logger.server";

/** An id a proxy in front of us made (letters, digits and separators); anything else is replaced. */
const PROXY_REQUEST_ID = /^[A-Za-z0-9._:-]{8,128}$/;

/**
 * The path as it may be logged: never the query (sign-in tokens, payment results), and for stored
 * files only the order's folder, since a file's name may be a patient's.
 */
export function loggedPath(path: string): string {
  const file = /^\/files\/orders\/(order_[0-9a-f-]{36})\//.exec(path);
  return file ? `/files/orders/${file[1]}/…` : path;
}

/**
 * Gives every request an id (the proxy's `X-Request-Id` when it sent a sensible one), sends it back,
 * runs the rest of the request inside it (every log line written meanwhile carries it) and writes one
 * line when the answer is sent: method, path, route, status, duration, role. No query, no cookies, no
 * body, no e-mail.
 */
export function requestLog(): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    const offered = req.get("x-request-id");
    const facts: RequestFacts = { requestId: offered && PROXY_REQUEST_ID.test(offered) ? offered : randomUUID() };
    res.setHeader("X-Request-Id", facts.requestId);
    const started = process.hrtime.bigint();
    let logged = false;
    const log = (aborted: boolean) => {
      if (logged) return;
      logged = true;
      const line = {
        requestId: facts.requestId,
        method: req.method,
        path: loggedPath(req.originalUrl.split("?")[0]!),
        route: facts.routeId,
        status: aborted ? undefined : res.statusCode,
        ms: Math.round(Number(process.hrtime.bigint() - started) / 1e5) / 10,
        role: facts.role ?? "anonymous",
      };
      if (aborted) logger.info({ ...line, aborted: true }, "request aborted");
      else if (res.statusCode >= 500) logger.error(line, "request failed");
      else logger.info(line, "request");
    };
    res.once("finish", () => log(false));
    res.once("close", () => log(!res.writableFinished));
    withRequestFacts(facts, next);
  };
}
