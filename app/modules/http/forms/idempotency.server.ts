import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import { gunzipSync, gzipSync } from "node:zlib";
import type { NextFunction, Request, Response } from "express";
import { sql } from "kysely";
import { getConfig } from "~/modules/config/config.server";
import { type DB, getDb } from "~/modules/db/db.server";
import { logger } from "~/modules/log/logger.server";
import { addressGroup } from "../request/client-address";
import { cookiePairs } from "../request/cookie-header";
import { COOKIE_LIST } from "../request/cookie-list";
import { RESEND_KEY, RESEND_KEY_HEADER } from "./idempotency";

/**
 * What is kept for a post sent again (ADR 046, bounded by ADR 056): only an answer a resend needs —
 * a redirect or a small data answer, never a refusal — at most MAX_KEPT_BYTES once compressed, and
 * only so many keys per sender and per address group an hour; past those the post runs as a plain
 * one. A key belongs to its sender: another sender presenting it gets no answer of the first.
 */
const MAX_KEPT_BYTES = 8 * 1024;
export const REPLAY_KEYS_PER_SENDER_HOUR = 50;
export const REPLAY_KEYS_PER_ADDRESS_HOUR = 200;
/** How long a resend waits for the first request's answer before being asked to come back. */
const WAIT_MS = 10_000;
const POLL_MS = 100;
/** Headers of the first answer that are not given again (the transport's own). */
const NOT_REPLAYED = new Set(["content-length", "content-encoding", "transfer-encoding", "connection", "date", "x-request-id"]);
/** The cookies that say who a browser is; the others (a toast, a language) change from one request to the next. */
const SENDER_COOKIES = new Set<string>([COOKIE_LIST.session.name, COOKIE_LIST.backofficeGate.name, COOKIE_LIST.packerGate.name, COOKIE_LIST.browserOrders.name, COOKIE_LIST.currentOrder.name]);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const sha256 = (text: string) => createHash("sha256").update(text).digest("base64url");

/**
 * Who sent a request: a hash of the cookies that name its session or browser; a browser that has
 * none yet (a first visit) is its address group, its other cookies and its User-Agent.
 */
export function senderOf(cookieHeader: string | undefined, group: string, userAgent = ""): string {
  const pairs = cookiePairs(cookieHeader).sort(([a], [b]) => a.localeCompare(b));
  const own = pairs.filter(([name]) => SENDER_COOKIES.has(name));
  const named = (list: Array<[string, string]>) => list.map(([name, value]) => `${name}=${value}`).join(";");
  return sha256(own.length > 0 ? `cookies:${named(own)}` : `browser:${group}|${named(pairs)}|${userAgent}`);
}

/** Set-Cookie values are kept sealed (AES-256-GCM under a key derived from SESSION_SECRET), never in plain text. */
function sealKey(): Buffer {
  return createHash("sha256").update(`request-replays:${getConfig().secrets.SESSION_SECRET}`).digest();
}

function seal(text: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", sealKey(), iv);
  const sealed = Buffer.concat([cipher.update(text, "utf8"), cipher.final()]);
  return `sealed:${Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString("base64")}`;
}

function unseal(value: string): string | null {
  if (!value.startsWith("sealed:")) return null;
  try {
    const bytes = Buffer.from(value.slice("sealed:".length), "base64");
    const decipher = createDecipheriv("aes-256-gcm", sealKey(), bytes.subarray(0, 12));
    decipher.setAuthTag(bytes.subarray(12, 28));
    return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString("utf8");
  } catch {
    return null; // sealed under another secret: the cookie is not given again
  }
}

/**
 * An enhanced post sent again after its answer was lost acts once (ADR 046). The browser's resend
 * mechanism (`idempotency-fetch.ts`) gives each post a key and keeps it over its resends. The first request
 * with a key claims it and runs; its answer (status, headers, body) is kept under the key. A request
 * with a key already claimed by the same sender waits for that answer and gets it again — it never
 * reaches Remix. Posts without a key (plain forms, machines) pass untouched.
 */
export function resendOnce(options: { db?: () => Promise<DB> } = {}) {
  const database = options.db ?? getDb;
  return (req: Request, res: Response, next: NextFunction) => {
    const key = req.get(RESEND_KEY_HEADER);
    if (!key || req.method === "GET" || req.method === "HEAD" || !RESEND_KEY.test(key)) return next();
    const group = addressGroup(req.ip ?? req.socket.remoteAddress ?? "unknown");
    handle(database, key, { sender: senderOf(req.get("cookie"), group, req.get("user-agent")), group }, req, res, next).catch(next);
  };
}

type Sender = { sender: string; group: string };

/** Whether the sender and its address group may keep one more answer this hour. */
async function mayKeep(db: DB, { sender, group }: Sender): Promise<boolean> {
  const live = (column: "sender" | "address_group", value: string, limit: number) =>
    db
      .selectFrom((inner) =>
        inner
          .selectFrom("request_replays")
          .select("key")
          .where(column, "=", value)
          .where("created_at", ">", sql<Date>`now() - interval '1 hour'`)
          .limit(limit)
          .as("live"),
      )
      .select(sql<number>`count(*)::int`.as("n"))
      .executeTakeFirstOrThrow();
  const [bySender, byGroup] = await Promise.all([live("sender", sender, REPLAY_KEYS_PER_SENDER_HOUR), live("address_group", group, REPLAY_KEYS_PER_ADDRESS_HOUR)]);
  return bySender.n < REPLAY_KEYS_PER_SENDER_HOUR && byGroup.n < REPLAY_KEYS_PER_ADDRESS_HOUR;
}

async function handle(database: () => Promise<DB>, key: string, from: Sender, req: Request, res: Response, next: NextFunction) {
  const target = `${req.method} ${req.originalUrl}`;
  let db: DB;
  let claimed: boolean;
  try {
    db = await database();
    const known = await db.selectFrom("request_replays").select("key").where("key", "=", key).executeTakeFirst();
    // Past the sender's or the address's keys this hour, a post runs as a plain one, remembered by nobody.
    if (!known && !(await mayKeep(db, from))) return next();
    claimed = Boolean(
      await db
        .insertInto("request_replays")
        .values({ key, target, sender: from.sender, address_group: from.group })
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
    const row = await db.selectFrom("request_replays").select(["target", "sender", "status", "headers", "body"]).where("key", "=", key).executeTakeFirst();
    if (!row) return handle(database, key, from, req, res, next); // forgotten meanwhile: a fresh request
    if (row.target !== target || row.sender !== from.sender) {
      res.status(422).type("text/plain; charset=utf-8").send("Ключ повтора уже использован другим запросом.\nThis resend key belongs to another request.\n");
      return;
    }
    if (row.status !== null) {
      res.status(row.status);
      for (const [name, value] of row.headers ?? []) {
        const replayed = name === "set-cookie" ? unseal(value) : value;
        if (replayed !== null) res.append(name, replayed);
      }
      res.end(row.body ? gunzipSync(row.body) : undefined);
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
    // Uncompressed answers stop being gathered well past what could still compress to the limit.
    if (size <= 16 * MAX_KEPT_BYTES) chunks.push(bytes);
  };
  const write = res.write.bind(res) as (...args: unknown[]) => boolean;
  const end = res.end.bind(res) as (...args: unknown[]) => Response;
  (res as { write: unknown }).write = (chunk: unknown, ...rest: unknown[]) => {
    keep(chunk, rest[0]);
    return write(chunk, ...rest);
  };
  (res as { end: unknown }).end = (chunk?: unknown, ...rest: unknown[]) => {
    keep(chunk, rest[0]);
    void save(db, key, keptAnswer(res.statusCode, size, chunks, () => replayedHeaders(res)));
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

/** The answer as it is kept: only one a resend needs (no refusal, which acts on nothing), compressed and small; else none. */
function keptAnswer(status: number, size: number, chunks: Buffer[], headers: () => Array<[string, string]>): { status: number; headers: Array<[string, string]>; body: Buffer } | null {
  if (status >= 400 || size > 16 * MAX_KEPT_BYTES) return null;
  const body = gzipSync(Buffer.concat(chunks));
  return body.length <= MAX_KEPT_BYTES ? { status, headers: headers(), body } : null;
}

function replayedHeaders(res: Response): Array<[string, string]> {
  const headers: Array<[string, string]> = [];
  for (const [name, value] of Object.entries(res.getHeaders())) {
    if (value === undefined || NOT_REPLAYED.has(name)) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.push([name, name === "set-cookie" ? seal(String(one)) : String(one)]);
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
