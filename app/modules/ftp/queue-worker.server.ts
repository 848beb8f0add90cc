import { logger } from "~/modules/log/logger.server";
import { messageOf } from "./transfer-entry.server";
import { newWorkerId, processQueue, type QueueDeps, type QueueSettings } from "./transfer.server";

export interface QueueWorkerOptions {
  /** Pause between runs while nothing is due. */
  pollMs?: number;
  /** Longest run on one connection before reconnecting. */
  batchMs?: number;
  /** On stop, files in flight get this long to finish before they are released. */
  graceMs?: number;
  workerId?: string;
}

export interface QueueWorker {
  readonly workerId: string;
  /** Stops claiming, lets files in flight finish (or releases them after the grace period) and resolves when done. */
  stop(): Promise<void>;
}

/** The long-running worker: runs the queue again and again, pausing `pollMs` while nothing is due. */
export function startQueueWorker(deps: QueueDeps, settings: QueueSettings, options: QueueWorkerOptions = {}): QueueWorker {
  const log = deps.log ?? logger.info;
  const workerId = options.workerId ?? newWorkerId();
  const pollMs = options.pollMs ?? 2_000;
  const controller = new AbortController();
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        controller.signal.removeEventListener("abort", done);
        resolve();
      }
      controller.signal.addEventListener("abort", done, { once: true });
    });

  const loop = (async () => {
    while (!controller.signal.aborted) {
      let busy = false;
      try {
        const summary = await processQueue(deps, settings, { workerId, budgetMs: options.batchMs ?? 5 * 60_000, graceMs: options.graceMs, signal: controller.signal });
        // Something was sent: more may be due at once. Only failures: wait, the server may be down.
        busy = summary.completed > 0;
      } catch (error) {
        log(`ftp queue: run failed: ${messageOf(error)}`);
      }
      if (!busy) await pause(pollMs);
    }
  })();

  return {
    workerId,
    async stop() {
      controller.abort();
      await loop;
    },
  };
}
