import type { DB } from "~/modules/db/db.server";
import { getConfig } from "~/modules/config/config.server";
import { getFileServer } from "~/modules/ftp/file-server.server";
import { startQueueWorker } from "~/modules/ftp/queue-worker.server";
import { newWorkerId, type QueueSettings } from "~/modules/ftp/transfer.server";
import { getStorage } from "~/modules/storage/storage.server";
import { runHousekeeping } from "./scheduled.server";
import { runHousekeepingPass } from "./housekeeping-lease.server";
import { logger } from "~/modules/log/logger.server";

/** How often a process asks whether housekeeping is due, as a share of the interval: a pass starts this soon into its interval. */
const CHECKS_PER_INTERVAL = 10;
/** The first check after start (sooner with a short interval). */
const FIRST_CHECK_MS = 5_000;

export interface SchedulerOptions {
  /** One housekeeping pass (drafts, codes, sessions…) this often for the whole deployment; the configured interval by default. */
  housekeepingIntervalMs?: number;
  /** Who this process is in the lease row and the log ("web", "queue-worker"). */
  kind?: string;
  /** The queue worker's pause while nothing is due. */
  queuePollMs?: number;
  /** On stop, files in flight get this long before they are released (fly's kill_timeout is 30 s). */
  graceMs?: number;
  /** Overrides of the configured queue settings (tests, benchmarks). */
  queue?: Partial<QueueSettings>;
  log?: (line: string) => void;
}

/**
 * The scheduled job inside this process: the queue worker (sends due files continuously, pausing
 * while nothing is due) and housekeeping once an interval — for the whole deployment: every process
 * asks ten times an interval, and only the one that takes the lease runs the pass (ADR 084). Used with
 * the embedded database (PGlite allows one process), by web workers with QUEUE_IN_PROCESS=true and by
 * `npm run queue:work`. Returns a stop function that lets files in flight finish (or releases them
 * after the grace period) and waits for a housekeeping pass under way.
 */
export function startInProcessScheduler(db: DB, options: SchedulerOptions = {}) {
  const log = options.log ?? logger.info;
  const storage = getStorage();
  const config = getConfig();
  const intervalMs = options.housekeepingIntervalMs ?? config.housekeeping.intervalMs;
  const holder = newWorkerId(options.kind ?? "scheduler");
  let running: Promise<void> | null = null;
  let stopped = false;
  const tick = () => {
    if (running || stopped) return;
    running = runHousekeepingPass(db, { holder, due: "interval", intervalMs, log, run: (signal) => runHousekeeping(db, storage, { signal }) })
      .then(() => undefined)
      .catch((error) => logger.error("scheduled job failed:", error))
      .finally(() => {
        running = null;
      });
  };
  const checkMs = Math.max(100, intervalMs / CHECKS_PER_INTERVAL);
  const timer = setInterval(tick, checkMs);
  timer.unref();
  const first = setTimeout(tick, Math.min(FIRST_CHECK_MS, checkMs));
  first.unref();

  const worker = startQueueWorker(
    { db, storage, fileServer: getFileServer(), log },
    { ...config.queue, ...options.queue },
    { pollMs: options.queuePollMs, graceMs: options.graceMs ?? 20_000 },
  );

  return async () => {
    stopped = true;
    clearInterval(timer);
    clearTimeout(first);
    await Promise.all([worker.stop(), running]);
  };
}
