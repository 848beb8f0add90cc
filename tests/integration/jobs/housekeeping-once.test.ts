import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SECRETS, startApp, type TestApp } from "../../support/app";
import { createTestDatabase, type TestDatabase } from "../../support/database";
import { type QueueWorker, startQueueWorker } from "../../support/queue-worker";
import { waitFor } from "../ftp/fixtures";

/**
 * Housekeeping once an interval for the whole deployment (ADR 084), with real processes: `npm start`
 * with two web workers that run the scheduled job (QUEUE_IN_PROCESS=true) and one `npm run
 * queue:work`, all on one PostgreSQL, the interval 2 s instead of a minute. The test reads every pass
 * from what the database records (a poll well inside the interval sees each pass's start) and from
 * the processes' log lines: one pass an interval, none twice, whichever process is left.
 */

const INTERVAL_MS = 2_000;
const WINDOW_INTERVALS = 8;
const HOLDER = /^(web|queue-worker):.+:(\d+):[0-9a-f]{6}$/;

interface Pass {
  startedAt: number;
  by: string;
}

describe("housekeeping with three processes on one database", () => {
  let t: TestDatabase;
  let app: TestApp;
  let worker: QueueWorker;
  const passes: Pass[] = [];
  let polling = true;
  let poller: Promise<void>;

  /** The pass counter with the last pass's start, as one row records them, once the poll has seen that start too. */
  const recorded = async () => {
    const row = await t.db.selectFrom("housekeeping_lease").select(["passes", "last_started_at"]).executeTakeFirstOrThrow();
    const startedAt = row.last_started_at?.getTime() ?? 0;
    await waitFor(async () => startedAt === 0 || passes.some((pass) => pass.startedAt === startedAt), 5_000, "the poll to see the last pass");
    return { passes: Number(row.passes), startedAt };
  };
  /** Every start the row records, read twenty times an interval or more. */
  async function poll() {
    while (polling) {
      const row = await t.db.selectFrom("housekeeping_lease").select(["last_started_at", "last_ran_by"]).executeTakeFirstOrThrow();
      const startedAt = row.last_started_at?.getTime();
      if (startedAt !== undefined && passes.at(-1)?.startedAt !== startedAt) passes.push({ startedAt, by: row.last_ran_by! });
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  const intervalOf = (pass: Pass) => Math.floor(pass.startedAt / INTERVAL_MS);
  /** The processes' log lines naming who ran a pass. */
  const loggedPasses = () => [...(app.output() + worker.output()).matchAll(/housekeeping: pass by (\S+) in \d+ ms/g)].map((match) => match[1]!);
  /** The web workers: the primary's children (the parent pid is the 4th field of /proc/<pid>/stat). */
  const childrenOf = (pid: number) =>
    fs
      .readdirSync("/proc")
      .filter((name) => /^\d+$/.test(name))
      .filter((name) => {
        try {
          const stat = fs.readFileSync(`/proc/${name}/stat`, "utf8");
          return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) === pid;
        } catch {
          return false; // gone meanwhile
        }
      })
      .map(Number);

  beforeAll(async () => {
    t = await createTestDatabase(2);
    // From before the first process starts: every pass is seen.
    poller = poll();
    const env = { DATABASE_URL: t.url, ...SECRETS, HOUSEKEEPING_INTERVAL_SECONDS: String(INTERVAL_MS / 1000) };
    app = await startApp({ database: t, env: { ...env, WEB_CONCURRENCY: "2", QUEUE_IN_PROCESS: "true" } });
    worker = await startQueueWorker({ ...env, DATA_DIR: app.dataDir }, ["--housekeeping-ms", String(INTERVAL_MS)]);
    await waitFor(async () => childrenOf(app.pid).length === 2, 60_000, "both web workers");
  }, 120_000);
  afterAll(async () => {
    polling = false;
    await poller;
    worker?.child.kill("SIGKILL");
    await app?.close();
    await t?.drop();
  });

  it("runs each pass once an interval in all, never twice in one, and names the process that ran it", { timeout: 90_000 }, async () => {
    // All three have been asking for a while.
    await new Promise((resolve) => setTimeout(resolve, INTERVAL_MS));
    const before = await recorded();
    await new Promise((resolve) => setTimeout(resolve, WINDOW_INTERVALS * INTERVAL_MS));
    const after = await recorded();
    const ran = after.passes - before.passes;
    const window = passes.filter((pass) => pass.startedAt > before.startedAt && pass.startedAt <= after.startedAt);

    // Without the lease each process would run its own pass every interval: three an interval.
    expect(ran).toBeGreaterThanOrEqual(WINDOW_INTERVALS - 1);
    expect(ran).toBeLessThanOrEqual(WINDOW_INTERVALS + 1);
    // Every pass the counter counted was seen starting on its own: none started within 50 ms of another.
    expect(window.length).toBe(ran);
    const intervals = window.map(intervalOf);
    expect(new Set(intervals).size).toBe(intervals.length);
    expect(intervals.at(-1)! - intervals[0]! + 1 - intervals.length).toBeLessThanOrEqual(1);
    // Each was run by one of the three processes, and said so in its log.
    for (const pass of window) expect(pass.by).toMatch(HOLDER);
    const logged = loggedPasses();
    for (const pass of window) expect(logged).toContain(pass.by);
  });

  it("goes on once an interval in the processes that are left when the one that ran the passes dies", { timeout: 90_000 }, async () => {
    const runners = new Set<string>();
    for (let kill = 0; kill < 2; kill++) {
      const last = passes.at(-1)!;
      runners.add(last.by);
      const pid = Number(HOLDER.exec(last.by)![2]);
      expect([worker.child.pid, ...childrenOf(app.pid)]).toContain(pid);
      process.kill(pid, "SIGKILL");
      // Another process takes the next interval's pass (a dead web worker is also replaced by the primary).
      await waitFor(async () => passes.at(-1)!.by !== last.by && passes.at(-1)!.startedAt > last.startedAt, 30_000, "another process to run a pass");
      await new Promise((resolve) => setTimeout(resolve, 2 * INTERVAL_MS));
    }
    runners.add(passes.at(-1)!.by);
    expect(runners.size).toBe(3);
    // Over the whole run, deaths included: every pass seen on its own, never two in one interval.
    const end = await recorded();
    const all = passes.filter((pass) => pass.startedAt <= end.startedAt);
    expect(all.length).toBe(end.passes);
    const intervals = all.map(intervalOf);
    expect(new Set(intervals).size).toBe(intervals.length);
  });
});
