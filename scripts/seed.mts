import "./load-env";
// `npm run db:seed`: migrates the configured database and loads the demo data once, and puts the
// demo model in the configured storage under every file the demo orders record.
// Demo data never exists in production (DESIGN §2), so strict mode refuses to run.
// The demo data itself is app/modules/demo (data in data.json, loaded through the domain modules).
import { ConfigError, getConfig } from "~/modules/config/config.server";
import { openDatabase } from "~/modules/db/db.server";
import { migrateToLatest } from "~db/migrator";
import { createStorage } from "~/modules/storage/storage.server";
import { seedDemoData, storeDemoFiles } from "~/modules/demo/seed.server";
import { logger } from "~/modules/log/logger.server";

const REFUSAL = "db:seed refuses to run with APP_ENV=production: demo data must never exist in production.";

async function main(): Promise<number> {
  let config: ReturnType<typeof getConfig>;
  try {
    config = getConfig();
  } catch (error) {
    // Strict mode with missing variables throws before `strict` can be read; it is still production.
    logger.error(error instanceof ConfigError ? REFUSAL : `db:seed: ${(error as Error).message}`);
    return 1;
  }
  if (config.strict) {
    logger.error(REFUSAL);
    return 1;
  }

  const target = config.database.kind === "postgres" ? "PostgreSQL (DATABASE_URL)" : `PGlite in ${config.database.dir}`;
  logger.info(`db:seed: ${target}`);
  const db = await openDatabase(config.database, { poolSize: 2 });
  try {
    for (const line of await migrateToLatest(db)) logger.info(`migrate: ${line}`);
    const summary = await seedDemoData(db);
    logger.info(summary.message);
    logger.info(summary.counts);
    const storage = createStorage(config);
    await storage.ensureBuckets();
    logger.info(`demo files stored: ${await storeDemoFiles(db, storage)}`);
    return 0;
  } catch (error) {
    logger.error("db:seed failed:", error);
    return 1;
  } finally {
    await db.destroy();
  }
}

process.exitCode = await main();
