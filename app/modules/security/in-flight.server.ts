import type { NextFunction, Request, RequestHandler, Response } from "express";
import { sendErrorPage } from "~/modules/http/answers/error-page.server";
import { logger } from "~/modules/log/logger.server";
import { addressGroup } from "~/modules/http/request/client-address";

/**
 * Requests in flight per address group, in this process (ADR 056): one sender holding many slow
 * requests open cannot take the connections and memory other visitors need. Past the cap a request
 * is answered at once with 429 in the reader's language and `Retry-After`, and its connection
 * closes. A clinic's browsers behind one address open a few requests each (six per browser at most),
 * so the cap leaves a busy clinic room. Counted in memory: a count of what this process is doing now,
 * not a limit another instance needs to see.
 */
export const IN_FLIGHT_PER_ADDRESS = 64;
export const IN_FLIGHT_RETRY_AFTER_S = 5;

export function inFlightLimit(options: { perAddress?: number; stylesheets?: () => readonly string[] } = {}): RequestHandler {
  const cap = options.perAddress ?? IN_FLIGHT_PER_ADDRESS;
  const inFlight = new Map<string, number>();
  return (req: Request, res: Response, next: NextFunction) => {
    const group = addressGroup(req.ip ?? req.socket.remoteAddress ?? "unknown");
    const count = inFlight.get(group) ?? 0;
    if (count >= cap) {
      logger.info({ addressGroup: group, inFlight: count }, "request refused: too many in flight from one address");
      res.setHeader("Retry-After", String(IN_FLIGHT_RETRY_AFTER_S));
      res.setHeader("Connection", "close");
      void sendErrorPage(req, res, 429, options.stylesheets?.() ?? []);
      return;
    }
    inFlight.set(group, count + 1);
    res.once("close", () => {
      const left = (inFlight.get(group) ?? 1) - 1;
      if (left > 0) inFlight.set(group, left);
      else inFlight.delete(group);
    });
    next();
  };
}

/**
 * Connections one process keeps open at most: below its descriptor limit, with room for what else
 * it opens (the database pool, storage and file server connections, files being written).
 */
export function maxConnectionsFor(descriptorLimit: number | null, reserve = 1024): number {
  if (!descriptorLimit || !Number.isFinite(descriptorLimit)) return 4096;
  return Math.max(64, descriptorLimit - reserve);
}

/** The soft limit on open files of this process (Linux), or null where it cannot be read. */
export async function descriptorLimit(): Promise<number | null> {
  try {
    const { readFile } = await import("node:fs/promises");
    const limits = await readFile("/proc/self/limits", "utf8");
    const soft = /^Max open files\s+(\d+|unlimited)/m.exec(limits)?.[1];
    return soft && soft !== "unlimited" ? Number(soft) : null;
  } catch {
    return null;
  }
}
