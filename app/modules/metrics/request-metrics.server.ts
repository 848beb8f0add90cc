import type { NextFunction, Request, RequestHandler, Response } from "express";
import { requestFacts } from "~/modules/log/logger.server";
import { instruments, statusClass } from "./count.server";

/**
 * Times every request and counts those in flight (ADR 073). Runs inside the request log's context
 * (log/request-log.server.ts), whose facts name the deepest route that answered: the label is that
 * Remix route id, or "none" for what no route answered (static files, refusals before routing), so
 * the series stay as many as the routes whatever URLs are asked for.
 *
 * `kindOf` tells a page (a route that renders) from a resource route (uploads, webhooks, files).
 */
export function requestMetrics(kindOf: (routeId: string) => "page" | "resource"): RequestHandler {
  const { requestDuration, requestsInFlight } = instruments();
  return (_req: Request, res: Response, next: NextFunction) => {
    const started = process.hrtime.bigint();
    const facts = requestFacts();
    requestsInFlight.inc();
    let done = false;
    const end = () => {
      if (done) return;
      done = true;
      requestsInFlight.dec();
      const route = facts?.routeId;
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      // An answer cut off by the client has the status it was going to send.
      requestDuration.observe({ route: route ?? "none", kind: route ? kindOf(route) : "other", status: statusClass(res.statusCode) }, seconds);
    };
    res.once("finish", end);
    res.once("close", end);
    next();
  };
}
