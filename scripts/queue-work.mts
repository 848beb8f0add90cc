import "./load-env";
import { parseArgs } from "node:util";
import { loadConfig } from "../app/modules/config/config.server";
import { getDb } from "../app/modules/db/db.server";
import { startInProcessScheduler } from "../app/modules/jobs/scheduler.server";
import { migrateToLatest } from "../db/migrator";
import { logger } from "../app/modules/log/logger.server";
import { startMetricsServer } from "../app/modules/metrics/metrics-server.server";

/**
 * `npm run queue:work`: the long-lived worker process (fly.toml `worker`). Sends due files of the
 * production file server queue continuously (DESIGN §4.16) and takes its turn at the housekeeping of
 * the scheduled job: one pass a minute (HOUSEKEEPING_INTERVAL_SECONDS) for the whole deployment,
 * whichever process takes the lease (ADR 084). Any number of workers may run against one database.
 *
 * SIGTERM / SIGINT: stops claiming, lets files in flight finish for up to --grace-ms, releases the
 * rest (due again at once for another worker), then exits 0.
 *
 *   npm run queue:work -- [--poll-ms 2000] [--grace-ms 20000] [--retry-base-ms 60000] [--housekeeping-ms 60000]
 *
 * --housekeeping-ms overrides HOUSEKEEPING_INTERVAL_SECONDS for this worker (tests).
 */
const { values } = parseArgs({
  options: {
    "poll-ms": { type: "string" },
    "grace-ms": { type: "string" },
    "retry-base-ms": { type: "string" },
    "housekeeping-ms": { type: "string" },
  },
});
const number = (name: keyof typeof values) => {
  const value = values[name];
  if (value === undefined) return undefined;
  const parsed = Number(value);
  if (!Number.isFinite(parsed) || parsed <= 0) {
    logger.error(`--${name} must be a positive number of milliseconds`);
    process.exit(2);
  }
  return parsed;
};

const config = loadConfig();
for (const warning of config.retiredVariables) logger.warn(warning);
if (config.database.kind === "pglite") {
  logger.error("queue:work needs PostgreSQL (DATABASE_URL). With the embedded database the worker runs inside `npm start`.");
  process.exit(1);
}
const db = await getDb();
await migrateToLatest(db);
const stop = startInProcessScheduler(db, {
  kind: "queue-worker",
  queuePollMs: number("poll-ms"),
  graceMs: number("grace-ms"),
  housekeepingIntervalMs: number("housekeeping-ms"),
  queue: { retryBaseMs: number("retry-base-ms") },
});
// Its own metrics (transfers, mails of the scheduled job, the queue's gauges) on its own METRICS_PORT (ADR 073).
if (config.metrics) await startMetricsServer({ ...config.metrics, gather: "self", db: getDb, maxAttempts: config.queue.maxAttempts });
logger.info(
  `queue worker running (pid ${process.pid}): file server ${config.fileServer.kind}, ${config.queue.concurrency} files in flight, ` +
    `lease ${config.queue.leaseSeconds} s, at most ${config.queue.maxAttempts} attempts`,
);

let stopping = false;
for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.on(signal, async () => {
    if (stopping) return;
    stopping = true;
    logger.info(`${signal}: finishing the files in flight, then stopping`);
    await stop();
    await db.destroy();
    logger.info("queue worker stopped");
    process.exit(0);
  });
}
