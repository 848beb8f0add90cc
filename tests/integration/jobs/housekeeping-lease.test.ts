import { sql } from "kysely";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { DB } from "~/modules/db/db.server";
import {
  finishHousekeepingPass,
  housekeepingLeaseHolder,
  renewHousekeepingLease,
  runHousekeepingPass,
  takeHousekeepingLease,
} from "~/modules/jobs/housekeeping-lease.server";
import { DATABASE_KINDS, databaseOfKind } from "../../support/database";

/**
 * Housekeeping's lease (ADR 084), on both databases the service runs on: one pass an interval for the
 * whole deployment, never two at once, a dead process's lease lost when it runs out, and what the
 * last pass recorded. The processes themselves: housekeeping-once.test.ts.
 */

const MINUTE = 60_000;
const interval = { due: "interval", intervalMs: MINUTE, leaseMs: MINUTE } as const;
const now = { due: "now", intervalMs: MINUTE, leaseMs: MINUTE } as const;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(DATABASE_KINDS)("the housekeeping lease on %s", (_name, kind) => {
  let database: Awaited<ReturnType<typeof databaseOfKind>>;
  let db: DB;

  beforeAll(async () => {
    database = await databaseOfKind(kind, 8);
    db = database.db;
  });
  afterAll(async () => {
    await database?.drop();
  });
  beforeEach(async () => {
    await db
      .updateTable("housekeeping_lease")
      .set({ held_by: null, held_until: null, last_started_at: null, last_finished_at: null, last_ran_by: null, last_outcome: null, passes: 0 })
      .execute();
  });

  const row = () => db.selectFrom("housekeeping_lease").selectAll().executeTakeFirstOrThrow();
  /** As if the last pass had started in an earlier interval. */
  const lastPassAnHourAgo = () => db.updateTable("housekeeping_lease").set({ last_started_at: sql<Date>`now() - interval '1 hour'` }).execute();

  it("gives one pass an interval: held, nobody else starts one; finished, nobody starts another in the same interval", async () => {
    expect(await takeHousekeepingLease(db, "a", interval)).toBe(true);
    expect(await takeHousekeepingLease(db, "b", interval)).toBe(false);
    expect(await takeHousekeepingLease(db, "b", now)).toBe(false);
    expect(await housekeepingLeaseHolder(db)).toBe("a");

    expect(await finishHousekeepingPass(db, "a", "completed")).toBe(true);
    expect(await housekeepingLeaseHolder(db)).toBeNull();
    expect(await takeHousekeepingLease(db, "b", interval)).toBe(false);
    expect(await takeHousekeepingLease(db, "a", interval)).toBe(false);

    // The next interval: whoever asks first.
    await lastPassAnHourAgo();
    expect(await takeHousekeepingLease(db, "b", interval)).toBe(true);
    expect(await takeHousekeepingLease(db, "a", interval)).toBe(false);
    expect(await row()).toMatchObject({ held_by: "b", last_ran_by: "b", passes: 2, last_outcome: "completed" });
  });

  it("lets the cron route run a pass whenever none is running, and counts it for the interval", async () => {
    expect(await takeHousekeepingLease(db, "worker", interval)).toBe(true);
    await finishHousekeepingPass(db, "worker", "completed");
    expect(await takeHousekeepingLease(db, "cron", now)).toBe(true);
    expect(await takeHousekeepingLease(db, "worker", interval)).toBe(false);
    await finishHousekeepingPass(db, "cron", "completed");
    expect(await takeHousekeepingLease(db, "worker", interval)).toBe(false);
    expect((await row()).passes).toBe(2);
  });

  it("gives exactly one of many processes asking at the same moment the pass", async () => {
    const holders = Array.from({ length: 12 }, (_, i) => `process-${i}`);
    const taken = await Promise.all(holders.map((holder) => takeHousekeepingLease(db, holder, interval)));
    expect(taken.filter(Boolean)).toHaveLength(1);
    expect((await row()).held_by).toBe(holders[taken.indexOf(true)]);
    expect((await row()).passes).toBe(1);
  });

  it("loses a dead process's lease when it runs out; the process then can neither renew nor finish it", async () => {
    const lease = { ...interval, leaseMs: 400 };
    expect(await takeHousekeepingLease(db, "dies", lease)).toBe(true);
    expect(await renewHousekeepingLease(db, "dies", 400)).toBe(true);
    // It dies mid-pass. The next interval comes; its lease still holds for a moment.
    await lastPassAnHourAgo();
    expect(await takeHousekeepingLease(db, "survivor", lease)).toBe(false);
    await sleep(500);
    expect(await housekeepingLeaseHolder(db)).toBeNull();
    expect(await takeHousekeepingLease(db, "survivor", lease)).toBe(true);
    expect(await renewHousekeepingLease(db, "dies", 400)).toBe(false);
    expect(await finishHousekeepingPass(db, "dies", "completed")).toBe(false);
    expect(await row()).toMatchObject({ held_by: "survivor", last_ran_by: "survivor", passes: 2, last_outcome: null });
  });

  it("records when a pass started and ended, who ran it and how it went, and gives the lease back", async () => {
    const lines: string[] = [];
    const result = await runHousekeepingPass(db, { holder: "web:host:1", ...interval, log: (line) => lines.push(line), run: async () => ({ sessionsExpired: 2, rateLimitsPurged: 0, ms: 5 }) });
    expect(result).toEqual({ ran: true, summary: { sessionsExpired: 2, rateLimitsPurged: 0, ms: 5 } });
    const done = await row();
    expect(done).toMatchObject({ held_by: null, held_until: null, last_ran_by: "web:host:1", last_outcome: "completed", passes: 1 });
    expect(done.last_finished_at!.getTime()).toBeGreaterThanOrEqual(done.last_started_at!.getTime());
    expect(lines).toEqual([expect.stringMatching(/^housekeeping: pass by web:host:1 in \d+ ms: sessionsExpired=2$/)]);

    // Not due again in this interval: the pass does not run.
    let ran = false;
    expect(await runHousekeepingPass(db, { holder: "web:host:2", ...interval, run: async () => ((ran = true), {}) })).toEqual({ ran: false });
    expect(ran).toBe(false);

    await lastPassAnHourAgo();
    await expect(runHousekeepingPass(db, { holder: "web:host:2", ...interval, run: () => Promise.reject(new Error("storage down")) })).rejects.toThrow("storage down");
    expect(await row()).toMatchObject({ held_by: null, last_ran_by: "web:host:2", last_outcome: "failed", passes: 2 });
  });

  it("stops a pass whose lease another process took, and leaves that process's lease alone", async () => {
    const run = async (signal: AbortSignal) => {
      // The lease runs out under this pass (a stalled process) and another takes it.
      await db.updateTable("housekeeping_lease").set({ held_until: sql<Date>`now() - interval '1 second'` }).execute();
      expect(await takeHousekeepingLease(db, "other", now)).toBe(true);
      await new Promise((resolve) => signal.addEventListener("abort", resolve, { once: true }));
      signal.throwIfAborted();
      return {};
    };
    await expect(runHousekeepingPass(db, { holder: "stalled", ...interval, leaseMs: 300, run })).rejects.toThrow("the lease of stalled ran out and another process took it");
    expect(await row()).toMatchObject({ held_by: "other", last_ran_by: "other", last_outcome: null });
  });
});
