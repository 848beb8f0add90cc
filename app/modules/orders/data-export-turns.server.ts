import { sql } from "kysely";
import { getConfig } from "~/modules/config/config.server";
import type { DB } from "~/modules/db/db.server";
import { logger } from "~/modules/log/logger.server";
import { ReaderGone } from "./data-export.server";

/**
 * Turns for data exports with files (ADR 082). Such an export reads and sends every stored model of
 * the clinic — tens of CPU-seconds for a large clinic — so they take turns: one at a time per clinic,
 * whichever process it reaches (a lease row in `rate_limits`, shared by every process), and at most
 * `DATA_EXPORTS_WITH_FILES_PER_PROCESS` at once in a process. An export that finds its process busy
 * waits up to `DATA_EXPORT_WAIT_SECONDS` for a turn, first come first served; one that finds its
 * clinic's export running, or waits in vain, is refused with `Retry-After`. An export without files
 * is a few database reads and takes no turn.
 */

/** What a refused export is told to wait (`Retry-After`): "try again in a minute". */
export const EXPORT_RETRY_SECONDS = 60;
/** A clinic's lease lasts this long unless renewed: a process that dies mid-export frees its clinic within a minute. */
const LEASE_SECONDS = 60;
const RENEW_MS = 20_000;
/** A reader that takes nothing for this long loses its turn: the export ends there, broken. */
const STALLED_MS = 60_000;

const leaseKey = (email: string) => `data-export:account:${email.trim().toLowerCase()}`;

/** Takes the clinic's lease: its token, or null while another export of the clinic holds it. */
async function takeClinicLease(db: DB, email: string): Promise<string | null> {
  const lease = sql<Date>`now() + make_interval(secs => ${LEASE_SECONDS})`;
  const row = await db
    .insertInto("rate_limits")
    .values({ key: leaseKey(email), count: 1, window_started_at: sql`clock_timestamp()`, expires_at: lease })
    .onConflict((oc) =>
      oc
        .column("key")
        .doUpdateSet({ count: 1, window_started_at: sql`clock_timestamp()`, expires_at: lease })
        .where("rate_limits.expires_at", "<=", sql<Date>`now()`),
    )
    // The start of this lease, to the microsecond, names it: renewing and giving back touch only it.
    .returning(sql<string>`window_started_at::text`.as("token"))
    .executeTakeFirst();
  return row?.token ?? null;
}

async function renewClinicLease(db: DB, email: string, token: string): Promise<void> {
  await db
    .updateTable("rate_limits")
    .set({ expires_at: sql`now() + make_interval(secs => ${LEASE_SECONDS})` })
    .where("key", "=", leaseKey(email))
    .where(sql<boolean>`window_started_at = ${token}::timestamptz`)
    .execute();
}

async function giveBackClinicLease(db: DB, email: string, token: string): Promise<void> {
  await db.deleteFrom("rate_limits").where("key", "=", leaseKey(email)).where(sql<boolean>`window_started_at = ${token}::timestamptz`).execute();
}

/** This process's turns: at most `capacity` at once, the others waiting in order of arrival. */
class ProcessTurns {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly capacity: () => number) {}

  /** Resolves with a release once a turn is free, or with null when `waitMs` pass first. */
  take(waitMs: number): Promise<(() => void) | null> {
    if (this.running < this.capacity()) {
      this.running += 1;
      return Promise.resolve(this.releaser());
    }
    if (waitMs <= 0) return Promise.resolve(null);
    return new Promise((resolve) => {
      const granted = () => {
        clearTimeout(timer);
        resolve(this.releaser());
      };
      const timer = setTimeout(() => {
        this.waiting.splice(this.waiting.indexOf(granted), 1);
        resolve(null);
      }, waitMs);
      this.waiting.push(granted);
    });
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      // The turn passes straight to the longest waiter, or is given back.
      const next = this.waiting.shift();
      if (next) next();
      else this.running -= 1;
    };
  }
}

const processTurns = new ProcessTurns(() => getConfig().dataExports.withFilesPerProcess);

/** A turn held: given back once, when the export's stream ends, fails or its reader goes away. */
export type ExportTurn = { release(): Promise<void> };

export type TurnAnswer = { ok: true; turn: ExportTurn } | { ok: false; retryAfterSeconds: number };

/** A turn for the clinic's export with files; refused while its clinic's export runs or when none frees in time. */
export async function takeExportTurn(db: DB, email: string, waitSeconds = getConfig().dataExports.waitSeconds): Promise<TurnAnswer> {
  const token = await takeClinicLease(db, email);
  if (!token) return { ok: false, retryAfterSeconds: EXPORT_RETRY_SECONDS };
  const releaseProcessTurn = await processTurns.take(waitSeconds * 1000);
  if (!releaseProcessTurn) {
    await giveBackClinicLease(db, email, token);
    return { ok: false, retryAfterSeconds: EXPORT_RETRY_SECONDS };
  }
  const renewing = setInterval(() => {
    renewClinicLease(db, email, token).catch((error: unknown) => logger.warn({ err: error }, "data export: the clinic's lease could not be renewed"));
  }, RENEW_MS);
  renewing.unref();
  let released: Promise<void> | undefined;
  return {
    ok: true,
    turn: {
      release() {
        released ??= (async () => {
          clearInterval(renewing);
          releaseProcessTurn();
          await giveBackClinicLease(db, email, token).catch((error: unknown) => logger.warn({ err: error }, "data export: the clinic's lease is left to expire"));
        })();
        return released;
      },
    },
  };
}

/** When the process's exports may send their next piece: one schedule for all of them, first come first served. */
let nextPieceAt = 0;

/**
 * The export's pace, waited for before each piece of a model is read: the connection has taken what
 * was sent (`drained`), so the export goes at the browser's pace and memory holds a piece or two
 * however slow the line, and the process's exports together send no more than `bytesPerSecond`, so
 * what they cost it a second stays bounded however many hold a turn. A reader that takes nothing for
 * a minute loses its turn.
 */
export function exportPace(drained: () => Promise<void> = async () => undefined, bytesPerSecond = getConfig().dataExports.bytesPerSecond): (bytes: number) => Promise<void> {
  return async (bytes) => {
    await withinStall(drained());
    const now = performance.now();
    const at = Math.max(now, nextPieceAt);
    nextPieceAt = at + (bytes / bytesPerSecond) * 1000;
    if (at - now > 1) await new Promise((resolve) => setTimeout(resolve, at - now));
  };
}

/**
 * The export's stream, holding its turn until the last byte is sent, the stream fails, or the reader
 * goes away (`signal`: the browser closed the connection), which also cancels the export, so no
 * process keeps reading models for nobody.
 */
export function heldWhileStreaming(stream: ReadableStream<Uint8Array>, turn: ExportTurn, signal: AbortSignal): ReadableStream<Uint8Array> {
  const reader = stream.getReader();
  const end = (reason: unknown) => {
    void reader.cancel(reason).catch(() => undefined);
    void turn.release();
  };
  const gone = () => end(new ReaderGone("closed the connection"));
  if (signal.aborted) gone();
  else signal.addEventListener("abort", gone, { once: true });
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (!done) return controller.enqueue(value);
        controller.close();
        void turn.release();
      } catch (error) {
        controller.error(error);
        end(error);
      }
    },
    cancel() {
      end(new ReaderGone("cancelled the download"));
    },
  });
}

/** A reader that stopped taking the archive: its answer ends broken, a visitor's doing (408, logged at info). */
class ReaderStalled extends ReaderGone {
  readonly status = 408;
  constructor() {
    super(`took nothing for ${STALLED_MS / 1000} s`);
  }
}

/** `waiting`, or ReaderStalled once STALLED_MS pass first. */
function withinStall(waiting: Promise<void>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const stalled = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ReaderStalled()), STALLED_MS);
  });
  return Promise.race([waiting, stalled]).finally(() => clearTimeout(timer));
}
