import "./load-env";
import "./production-mode";
import cluster from "node:cluster";
import type { Server, ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import os from "node:os";
import { type AppConfig, ConfigError, loadConfig } from "../app/modules/config/config.server";
import { type DB, getDb, openDatabase } from "../app/modules/db/db.server";
import { startInProcessScheduler } from "../app/modules/jobs/scheduler.server";
import { createStorage } from "../app/modules/storage/storage.server";
import { migrateToLatest } from "../db/migrator";
import { seedDemoData, storeDemoFiles } from "../app/modules/demo/seed.server";
import { countOrders } from "../app/modules/orders/orders.server";
import { createApp } from "../server.mts";
import { startBackupControl } from "../app/modules/backup/control.server";
import { descriptorLimit, maxConnectionsFor } from "../app/modules/security/in-flight.server";
import { logger } from "../app/modules/log/logger.server";
import { answerPrimaryForMetrics, startMetricsServer } from "../app/modules/metrics/metrics-server.server";

/**
 * `npm start`: validates configuration (strict mode refuses embedded defaults), migrates, seeds an
 * empty embedded database with demo data, prints generated passwords and serves the app — with one
 * worker process per core (`WEB_CONCURRENCY` overrides; ADR 032). The primary process migrates and
 * seeds once, then only watches its workers: a worker that dies is replaced. Nothing the workers
 * must share lives in their memory (sessions, limits, queue claims and the translations' version are
 * in PostgreSQL). The embedded PGlite database belongs to one process, so it always runs one.
 * With METRICS_PORT set, the process that watches the others (or the only one) answers for all of
 * them there (ADR 073).
 */

let config: AppConfig;
try {
  config = loadConfig();
} catch (error) {
  logger.error(error instanceof ConfigError ? `\n${error.message}\n` : error);
  process.exit(1);
}

const MARKET_LABELS = { domestic: "domestic market (RUB, Russian)", international: "international market (EUR, English)" } as const;

/** Worker processes: WEB_CONCURRENCY, else one per core (one under `npm run dev`, which reloads one app); one with the embedded database. */
function webConcurrency(): number {
  const asked = Number(process.env.WEB_CONCURRENCY);
  const wanted = Number.isInteger(asked) && asked > 0 ? asked : process.env.NODE_ENV === "development" ? 1 : os.availableParallelism();
  if (config.database.kind === "pglite") {
    if (wanted > 1 && process.env.WEB_CONCURRENCY) logger.warn("WEB_CONCURRENCY is ignored with the embedded database: one process owns it");
    return 1;
  }
  return wanted;
}

function banner(workers: number): string {
  const lines = [`Aligner portal on port ${config.port}${workers > 1 ? ` (${workers} worker processes)` : ""}`];
  // Both markets' addresses (ADR 048): with no configuration the international one is international.localhost.
  for (const market of config.enabledMarkets) lines.push(`  ${MARKET_LABELS[market]}: ${config.publicOrigins[market]}`);
  lines.push(`  database: ${config.database.kind === "pglite" ? `embedded PGlite (${config.database.dir})` : "PostgreSQL"}`);
  lines.push(`  storage: ${config.storage.kind}, file server: ${config.fileServer.kind}, mail: ${config.mail.kind}`);
  if (config.payments.sandbox) lines.push("  payments: sandbox provider (test checkout, no real money)");
  if (config.generatedSecrets.length) {
    lines.push(`  generated secrets (kept in ${config.dataDir}/secrets.json):`);
    if (config.generatedSecrets.includes("BACKOFFICE_PASSWORD")) lines.push(`    back-office password: ${config.secrets.BACKOFFICE_PASSWORD}`);
    if (config.generatedSecrets.includes("PACKER_PASSWORD")) lines.push(`    packer password:      ${config.secrets.PACKER_PASSWORD}`);
    if (config.generatedSecrets.includes("CRON_SECRET")) lines.push(`    cron secret:          ${config.secrets.CRON_SECRET}`);
  }
  return lines.join("\n");
}

/** Migrations, buckets and the embedded demo data: once, before any process serves. */
async function prepare() {
  for (const warning of config.retiredVariables) logger.warn(warning);
  const db = await getDb();
  const steps = await migrateToLatest(db);
  if (steps.length) logger.info(`migrations: ${steps.join(", ")}`);

  const storage = createStorage(config);
  await storage.ensureBuckets();

  if (!config.strict && config.database.kind === "pglite") {
    if ((await countOrders(db)) === 0) {
      const summary = await seedDemoData(db);
      logger.info("demo data loaded into the embedded database:", summary);
      // Only right after seeding: checking 648 files costs 0.2–0.6 s, too much for every start.
      // `npm run db:seed` stores any that are missing.
      logger.info(`demo files stored: ${await storeDemoFiles(db, storage)}`);
    }
  }
  return db;
}

/**
 * A request that does not parse — often the bytes after a body that declared less than it sent.
 * Node answers 400 and destroys the socket at once; with the sender still sending, the kernel then
 * answers with a reset, and a reset can make the sender lose the answer it had not read yet (the
 * route's own 400 for the cut body). Here an answer under way is let finish, else the 400 (431 for
 * headers too large) is written, and the connection closes gently: what is still arriving is read
 * and thrown away for a moment first.
 */
function lingeringClientError(error: NodeJS.ErrnoException, socket: Duplex) {
  if (error.code === "ECONNRESET" || !socket.writable) return void socket.destroy();
  const close = () => {
    socket.end();
    socket.resume();
    setTimeout(() => socket.destroy(), 2000).unref();
  };
  const pending = (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage;
  if (pending && !pending.writableFinished) {
    socket.resume();
    pending.once("finish", close);
    setTimeout(() => socket.destroy(), 60_000).unref();
    return;
  }
  if ((socket as Duplex & { bytesWritten?: number }).bytesWritten === 0) {
    const status = error.code === "HPE_HEADER_OVERFLOW" ? "431 Request Header Fields Too Large" : "400 Bad Request";
    socket.write(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
  }
  close();
}

/** Serves the app in this process until SIGTERM or SIGINT. */
async function serve(onListening: () => void) {
  const db = await getDb();
  const development = process.env.NODE_ENV === "development";
  const app = await createApp({ trustProxy: config.strict ? 1 : "loopback", development });
  // Everything this process answers for is up before the public port opens: a probe that finds the
  // app healthy finds its metrics and its backup socket too.
  const stopScheduler = config.queue.inProcess ? startInProcessScheduler(db, { kind: "web" }) : () => Promise.resolve();
  // The embedded database can only be backed up by this process: `npm run backup` asks it (ADR 077).
  const stopBackupControl = config.database.kind === "pglite" ? startBackupControl(db, createStorage(config), config) : () => Promise.resolve();
  if (config.metrics && cluster.isPrimary) await startMetricsServer({ ...config.metrics, gather: "self", db: getDb, maxAttempts: config.queue.maxAttempts });
  const server: Server = app.listen(config.port, onListening);
  // Longer than a reverse proxy keeps an idle upstream connection (nginx and load balancers: 60 s), and
  // than any pause of this process (the embedded backup holds it for seconds): Node's 5 s closes a
  // connection a client is already reusing, and that request fails as a reset.
  server.keepAliveTimeout = 65_000;
  // Node ends a request body after 300 s by default: a 100 MiB model on a 2 Mbit/s clinic link takes
  // longer without JavaScript (bench/RESULTS.md, tus section). Allow an hour: a body that stalls or
  // crawls is cut long before (security/body-limit.server.ts), and headers must come within 20 s.
  server.requestTimeout = 60 * 60 * 1000;
  server.headersTimeout = 20_000;
  server.on("clientError", lingeringClientError);
  // Below the descriptor limit, with room for the database and storage (ADR 056).
  server.maxConnections = maxConnectionsFor(await descriptorLimit());

  async function shutdown(signal: string) {
    logger.info(`${signal}: shutting down`);
    server.close();
    await stopBackupControl();
    await stopScheduler();
    await db.destroy();
    process.exit(0);
  }
  process.once("SIGTERM", () => void shutdown("SIGTERM"));
  process.once("SIGINT", () => void shutdown("SIGINT"));
}

/** The primary of several workers: forks them, replaces one that dies, stops them all on a signal. */
function superviseWorkers(workers: number) {
  let stopping = false;
  let announced = false;
  for (let i = 0; i < workers; i++) cluster.fork();
  cluster.on("listening", () => {
    if (announced) return;
    announced = true;
    logger.info(banner(workers));
  });
  cluster.on("exit", (worker, code, signal) => {
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
      return;
    }
    logger.error(`worker ${worker.process.pid} exited (${signal ?? code}); starting another`);
    cluster.fork();
  });
  const stop = (signal: NodeJS.Signals) => {
    logger.info(`${signal}: stopping ${workers} worker processes`);
    stopping = true;
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill("SIGTERM");
    if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
  };
  process.once("SIGTERM", () => stop("SIGTERM"));
  process.once("SIGINT", () => stop("SIGINT"));
}

if (cluster.isPrimary) {
  const db = await prepare();
  const workers = webConcurrency();
  if (workers > 1) {
    // The primary only supervises: its connections go back before the workers open theirs.
    await db.destroy();
    superviseWorkers(workers);
    if (config.metrics) {
      // The database gauges are read once per scrape, on one connection of the primary's own.
      let scrapeDb: Promise<DB> | undefined;
      const database = config.database;
      await startMetricsServer({ ...config.metrics, gather: "workers", db: () => (scrapeDb ??= openDatabase(database, { poolSize: 1 })), maxAttempts: config.queue.maxAttempts });
    }
  } else {
    await serve(() => logger.info(banner(1)));
  }
} else {
  // Answers the primary's scrapes from the start: a worker still starting answers with zeros rather than not at all.
  if (config.metrics) answerPrimaryForMetrics();
  await serve(() => undefined);
}
