import type { NextFunction, Request, Response } from "express";
import { sql } from "kysely";
import { type DB, getDb } from "~/modules/db/db.server";
import { logger } from "~/modules/log/logger.server";
import { RESEND_KEY, RESEND_KEY_HEADER } from "./resend";

/** Answers larger than this are not kept (an enhanced post's answer is a few KB). */
const MAX_KEPT_BYTES = 1024 * 1024;
/** How long a resend waits for the first request's answer before being asked to come back. */
const WAIT_MS = 10_000;
const POLL_MS = 100;
/** Headers of the first answer that are not given again (the transport's own). */
const NOT_REPLAYED = new Set(["content-length", "content-encoding", "transfer-encoding", "connection", "date", "x-request-id"]);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * An enhanced post sent again after its answer was lost acts once (ADR 046). The browser's resend
 * mechanism (`resend-fetch.ts`) gives each post a key and keeps it over its resends. The first request
 * with a key claims it and runs; its answer (status, headers, body) is kept under the key. A request
 * with a key already claimed waits for that answer and gets it again, Set-Cookie and all — it never
 * reaches Remix. Posts without a key (plain forms, machines) pass untouched.
 */
export function resendOnce(options: { db?: () => Promise<DB> } = {}) {
  const database = options.db ?? getDb;
  return (req: Request, res: Response, next: NextFunction) => {
    const key = req.get(RESEND_KEY_HEADER);
    if (!key || req.method === "GET" || req.method === "HEAD" || !RESEND_KEY.test(key)) return next();
    handle(database, key, req, res, next).catch(next);
  };
}

async function handle(database: () => Promise<DB>, key: string, req: Request, res: Response, next: NextFunction) {
  const target = `${req.method} ${req.originalUrl}`;
  let db: DB;
  let claimed: boolean;
  try {
    db = await database();
    claimed = Boolean(
      await db
        .insertInto("request_replays")
        .values({ key, target })
        .onConflict((conflict) => conflict.column("key").doNothing())
        .returning("key")
        .executeTakeFirst(),
    );
  } catch (error) {
    // Without the database the request cannot be remembered; it runs as a plain post would.
    logger.warn({ err: error }, "resend: key not recorded");
    return next();
  }
  if (claimed) return record(db, key, res, next);

  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const row = await db.selectFrom("request_replays").select(["target", "status", "headers", "body"]).where("key", "=", key).executeTakeFirst();
    if (!row) return handle(database, key, req, res, next); // forgotten meanwhile: a fresh request
    if (row.target !== target) {
      res.status(422).type("text/plain; charset=utf-8").send("Ключ повтора уже использован другим запросом.\nThis resend key belongs to another request.\n");
      return;
    }
    if (row.status !== null) {
      res.status(row.status);
      for (const [name, value] of row.headers ?? []) res.append(name, value);
      res.end(row.body ?? undefined);
      return;
    }
    if (Date.now() > deadline) {
      // The first request is still running: the browser asks again a moment later.
      res.status(503).set("Retry-After", "1").type("text/plain; charset=utf-8").send("Запрос ещё выполняется.\nStill working on this request.\n");
      return;
    }
    await sleep(POLL_MS);
  }
}

/** Runs the request and keeps its answer under the key. */
function record(db: DB, key: string, res: Response, next: NextFunction) {
  const chunks: Buffer[] = [];
  let size = 0;
  const keep = (chunk: unknown, encoding?: unknown) => {
    if (chunk === undefined || chunk === null || typeof chunk === "function") return;
    const bytes = Buffer.isBuffer(chunk) ? chunk : typeof chunk === "string" ? Buffer.from(chunk, typeof encoding === "string" ? (encoding as BufferEncoding) : "utf8") : Buffer.from(chunk as Uint8Array);
    size += bytes.length;
    if (size <= MAX_KEPT_BYTES) chunks.push(bytes);
  };
  const write = res.write.bind(res) as (...args: unknown[]) => boolean;
  const end = res.end.bind(res) as (...args: unknown[]) => Response;
  (res as { write: unknown }).write = (chunk: unknown, ...rest: unknown[]) => {
    keep(chunk, rest[0]);
    return write(chunk, ...rest);
  };
  (res as { end: unknown }).end = (chunk?: unknown, ...rest: unknown[]) => {
    keep(chunk, rest[0]);
    void save(db, key, size <= MAX_KEPT_BYTES ? { status: res.statusCode, headers: replayedHeaders(res), body: Buffer.concat(chunks) } : null);
    return end(chunk, ...rest);
  };

  // The post runs to its end even when its sender is gone (a dropped connection is the very case
  // this is for): the Remix adapter's "close" listener, which would abort the request, is left out.
  const on = res.on;
  res.on = function (this: Response, event: string | symbol, listener: (...args: unknown[]) => void) {
    return event === "close" ? this : on.call(this, event, listener);
  } as typeof res.on;
  try {
    next();
  } finally {
    res.on = on;
  }
}

function replayedHeaders(res: Response): Array<[string, string]> {
  const headers: Array<[string, string]> = [];
  for (const [name, value] of Object.entries(res.getHeaders())) {
    if (value === undefined || NOT_REPLAYED.has(name)) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.push([name, String(one)]);
  }
  return headers;
}

async function save(db: DB, key: string, answer: { status: number; headers: Array<[string, string]>; body: Buffer } | null) {
  try {
    if (answer) {
      await db
        .updateTable("request_replays")
        .set({ status: answer.status, headers: JSON.stringify(answer.headers) as unknown as Array<[string, string]>, body: answer.body })
        .where("key", "=", key)
        .execute();
    } else {
      await db.deleteFrom("request_replays").where("key", "=", key).execute();
    }
  } catch (error) {
    logger.warn({ err: error }, "resend: answer not kept");
  }
}

/** Keys older than a day are of no use: no page resends that long. */
export async function purgeRequestReplays(db: DB): Promise<number> {
  const result = await db.deleteFrom("request_replays").where("created_at", "<", sql<Date>`now() - interval '1 day'`).executeTakeFirst();
  return Number(result.numDeletedRows);
}
