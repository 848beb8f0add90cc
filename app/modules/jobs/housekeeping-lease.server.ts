import { sql } from "kysely";
import type { DB } from "~/modules/db/db.server";
import { logger } from "~/modules/log/logger.server";
import { countHousekeepingPass } from "~/modules/metrics/count.server";

/**
 * Housekeeping once an interval for the whole deployment (ADR 084). Every process that runs the
 * scheduled job asks often; the one whose single-statement update of `housekeeping_lease` matches
 * runs the pass, the others match nothing and wait for the next interval. PostgreSQL makes a second
 * update of the row wait for the first and then re-reads it, so two processes never both take it;
 * an update that matches nothing writes nothing. The embedded PGlite runs the same statements.
 *
 * The lease is renewed while a pass runs; a process that died mid-pass loses it when it runs out,
 * and a pass that finds its lease taken stops before its next step. Only the database's clock counts.
 */

/**
 * - `interval`: only if no pass has started anywhere since the current interval began (intervals are
 *   counted from the Unix epoch, so every process agrees where one starts) — the schedulers.
 * - `now`: whenever no pass is running — the cron route, whose caller chose when.
 */
export type PassDue = "interval" | "now";

/** A process renews its lease this many times per lease while its pass runs. */
const RENEWALS_PER_LEASE = 3;

const seconds = (ms: number) => ms / 1000;

/** Takes the lease for `holder` when a pass is due and none is running; true when taken. */
export async function takeHousekeepingLease(db: DB, holder: string, options: { due: PassDue; intervalMs: number; leaseMs: number }): Promise<boolean> {
  const intervalStart = sql<Date>`date_bin(make_interval(secs => ${seconds(options.intervalMs)}), now(), timestamptz '1970-01-01 00:00:00+00')`;
  const taken = await db
    .updateTable("housekeeping_lease")
    .set((eb) => ({
      held_by: holder,
      held_until: sql<Date>`now() + make_interval(secs => ${seconds(options.leaseMs)})`,
      last_started_at: sql<Date>`now()`,
      last_ran_by: holder,
      passes: eb("passes", "+", 1),
    }))
    .where("id", "=", 1)
    .where((eb) => eb.or([eb("held_until", "is", null), eb("held_until", "<", sql<Date>`now()`)]))
    .$if(options.due === "interval", (query) => query.where((eb) => eb.or([eb("last_started_at", "is", null), eb("last_started_at", "<", intervalStart)])))
    .returning("id")
    .executeTakeFirst();
  return taken !== undefined;
}

/** Extends a held lease; false when `holder` no longer holds it (it ran out and another took it). */
export async function renewHousekeepingLease(db: DB, holder: string, leaseMs: number): Promise<boolean> {
  const renewed = await db
    .updateTable("housekeeping_lease")
    .set({ held_until: sql<Date>`now() + make_interval(secs => ${seconds(leaseMs)})` })
    .where("id", "=", 1)
    .where("held_by", "=", holder)
    .returning("id")
    .executeTakeFirst();
  return renewed !== undefined;
}

/** Records how the pass ended and gives the lease back; false when `holder` had lost it meanwhile. */
export async function finishHousekeepingPass(db: DB, holder: string, outcome: "completed" | "failed"): Promise<boolean> {
  const finished = await db
    .updateTable("housekeeping_lease")
    .set({ held_by: null, held_until: null, last_finished_at: sql<Date>`now()`, last_outcome: outcome })
    .where("id", "=", 1)
    .where("held_by", "=", holder)
    .returning("id")
    .executeTakeFirst();
  return finished !== undefined;
}

/** Who holds the lease now (null between passes or once it ran out). */
export async function housekeepingLeaseHolder(db: DB): Promise<string | null> {
  const row = await db
    .selectFrom("housekeeping_lease")
    .select("held_by")
    .where("id", "=", 1)
    .where("held_until", ">=", sql<Date>`now()`)
    .executeTakeFirst();
  return row?.held_by ?? null;
}

export interface HousekeepingPassOptions<Summary extends object> {
  /** Who runs it ("queue-worker:host:pid:…"): recorded in the row and said in the log line. */
  holder: string;
  due: PassDue;
  intervalMs: number;
  /** How long the lease lasts unless renewed; one interval by default, so a dead process costs no pass. */
  leaseMs?: number;
  log?: (line: string) => void;
  /** The pass itself (runHousekeeping, scheduled.server.ts); it stops before its next step once the signal fires. */
  run: (signal: AbortSignal) => Promise<Summary>;
}

export type HousekeepingPassResult<Summary> = { ran: true; summary: Summary } | { ran: false };

/** What a pass did, as "key=value" pairs of the counts above zero. */
function describeSummary(summary: object): string {
  return Object.entries(summary)
    .filter(([key, value]) => key !== "ms" && typeof value === "number" && value > 0)
    .map(([key, value]) => `${key}=${value}`)
    .join(" ");
}

/**
 * Runs the pass if this process takes the lease: records the pass's start and end in the row,
 * says which process ran it in one log line and counts it. A failed pass is recorded and rethrown.
 */
export async function runHousekeepingPass<Summary extends object>(db: DB, options: HousekeepingPassOptions<Summary>): Promise<HousekeepingPassResult<Summary>> {
  const { holder } = options;
  const leaseMs = options.leaseMs ?? options.intervalMs;
  const log = options.log ?? logger.info;
  if (!(await takeHousekeepingLease(db, holder, { due: options.due, intervalMs: options.intervalMs, leaseMs }))) return { ran: false };

  const controller = new AbortController();
  const renewal = setInterval(() => {
    renewHousekeepingLease(db, holder, leaseMs)
      .then((held) => {
        if (!held) controller.abort(new Error(`housekeeping: the lease of ${holder} ran out and another process took it`));
      })
      .catch((error: unknown) => logger.warn("housekeeping: renewing the lease failed:", error));
  }, leaseMs / RENEWALS_PER_LEASE);
  const started = performance.now();
  try {
    const summary = await options.run(controller.signal);
    clearInterval(renewal);
    await finishHousekeepingPass(db, holder, "completed");
    countHousekeepingPass("completed");
    const did = describeSummary(summary);
    log(`housekeeping: pass by ${holder} in ${Math.round(performance.now() - started)} ms${did ? `: ${did}` : ""}`);
    return { ran: true, summary };
  } catch (error) {
    clearInterval(renewal);
    countHousekeepingPass("failed");
    await finishHousekeepingPass(db, holder, "failed").catch((recordError: unknown) => logger.warn("housekeeping: recording the failed pass failed:", recordError));
    throw error;
  }
}
