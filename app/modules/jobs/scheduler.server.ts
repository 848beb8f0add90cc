import type { DB } from "~/modules/db/db.server";
import { getConfig } from "~/modules/config/config.server";
import { getFileServer } from "~/modules/ftp/file-server.server";
import { startQueueWorker } from "~/modules/ftp/queue-worker.server";
import type { QueueSettings } from "~/modules/ftp/transfer.server";
import { getStorage } from "~/modules/storage/storage.server";
import { runHousekeeping } from "./scheduled.server";
import { logger } from "~/modules/log/logger.server";

export const SCHEDULER_INTERVAL_MS = 60_000;

export interface SchedulerOptions {
  /** Housekeeping (drafts, codes, sessions…) runs this often; the first run 5 s after start. */
  housekeepingIntervalMs?: number;
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
 * while nothing is due) and housekeeping every minute. Used with the embedded database (PGlite
 * allows one process) and by `npm run queue:work`. Returns a stop function that lets files in
 * flight finish (or releases them after the grace period) and waits for a housekeeping run.
 */
export function startInProcessScheduler(db: DB, options: SchedulerOptions = {}) {
  const log = options.log ?? logger.info;
  const storage = getStorage();
  const config = getConfig();
  let running: Promise<void> | null = null;
  let stopped = false;
  const tick = () => {
    if (running || stopped) return;
    running = runHousekeeping(db, storage)
      .then((summary) => {
        const did = Object.entries(summary).filter(([key, value]) => key !== "ms" && value > 0);
        if (did.length) log(`scheduled job: ${did.map(([key, value]) => `${key}=${value}`).join(" ")}`);
      })
      .catch((error) => logger.error("scheduled job failed:", error))
      .finally(() => {
        running = null;
      });
  };
  const timer = setInterval(tick, options.housekeepingIntervalMs ?? SCHEDULER_INTERVAL_MS);
  timer.unref();
  const first = setTimeout(tick, 5_000);
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
