import "./load-env";
import type { Server } from "node:http";
import { sql } from "kysely";
import { ConfigError, loadConfig } from "../app/modules/config/config.server";
import { getDb } from "../app/modules/db/db.server";
import { startInProcessScheduler } from "../app/modules/jobs/scheduler.server";
import { createStorage } from "../app/modules/storage/storage.server";
import { migrateToLatest } from "../db/migrator";
import { seedDemoData, storeDemoFiles } from "../app/modules/demo/seed.server";
import { createApp } from "../server.mts";
import { logger } from "../app/modules/log/logger.server";

/**
 * `npm start`: validates configuration (strict mode refuses embedded defaults), migrates, seeds an
 * empty embedded database with demo data, prints generated passwords and serves the app.
 */

let config;
try {
  config = loadConfig();
} catch (error) {
  logger.error(error instanceof ConfigError ? `\n${error.message}\n` : error);
  process.exit(1);
}

const db = await getDb();
const steps = await migrateToLatest(db);
if (steps.length) logger.info(`migrations: ${steps.join(", ")}`);

const storage = createStorage(config);
await storage.ensureBuckets();

if (!config.strict && config.database.kind === "pglite") {
  const { count } = await db.selectFrom("orders").select(sql<number>`count(*)::int`.as("count")).executeTakeFirstOrThrow();
  if (count === 0) {
    const summary = await seedDemoData(db);
    logger.info("demo data loaded into the embedded database:", summary);
    // Only right after seeding: checking 648 files costs 0.2–0.6 s, too much for every start.
    // `npm run db:seed` stores any that are missing.
    logger.info(`demo files stored: ${await storeDemoFiles(db, storage)}`);
  }
}

const development = process.env.NODE_ENV === "development";
const app = await createApp({ trustProxy: config.strict ? 1 : "loopback", development });
const server: Server = app.listen(config.port, () => {
  const lines = [`Aligner portal on http://localhost:${config.port}`];
  lines.push(`  database: ${config.database.kind === "pglite" ? `embedded PGlite (${config.database.dir})` : "PostgreSQL"}`);
  lines.push(`  storage: ${config.storage.kind}, file server: ${config.fileServer.kind}, mail: ${config.mail.kind}`);
  if (config.payments.sandbox) lines.push("  payments: sandbox provider (test checkout, no real money)");
  if (config.generatedSecrets.length) {
    lines.push(`  generated secrets (kept in ${config.dataDir}/secrets.json):`);
    if (config.generatedSecrets.includes("BACKOFFICE_PASSWORD")) lines.push(`    back-office password: ${config.secrets.BACKOFFICE_PASSWORD}`);
    if (config.generatedSecrets.includes("PACKER_PASSWORD")) lines.push(`    packer password:      ${config.secrets.PACKER_PASSWORD}`);
    if (config.generatedSecrets.includes("CRON_SECRET")) lines.push(`    cron secret:          ${config.secrets.CRON_SECRET}`);
  }
  logger.info(lines.join("\n"));
});

// Node ends a request body after 300 s by default: a 100 MiB model on a 2 Mbit/s clinic link takes
// longer without JavaScript (bench/RESULTS.md, tus section). Allow an hour; headers still time out.
server.requestTimeout = 60 * 60 * 1000;

const stopScheduler = config.queue.inProcess ? startInProcessScheduler(db) : () => Promise.resolve();

async function shutdown(signal: string) {
  logger.info(`${signal}: shutting down`);
  server.close();
  await stopScheduler();
  await db.destroy();
  process.exit(0);
}
process.once("SIGTERM", () => void shutdown("SIGTERM"));
process.once("SIGINT", () => void shutdown("SIGINT"));
