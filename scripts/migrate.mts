import "./load-env";
// `npm run db:migrate`: brings the configured database to the latest migration.
// `npm run db:migrate -- down` undoes the most recent migration instead.
//
// Runs as the Fly release command (fly.toml) before new machines start, so it reads the same
// configuration as the app: in strict mode (APP_ENV=production) a missing variable stops it.
// Without DATABASE_URL it migrates the embedded PGlite database in DATA_DIR/pglite.
import { ConfigError, loadConfig, type AppConfig } from "../app/modules/config/config.server";
import { openDatabase } from "../app/modules/db/db.server";
import { migrateDown, migrateToLatest } from "../db/migrator";
import { logger } from "../app/modules/log/logger.server";

type Direction = "up" | "down";

const USAGE = "usage: npm run db:migrate [-- up|down]   (up: to the latest migration, the default; down: undo the last one)";

function describeTarget(database: AppConfig["database"]): string {
  if (database.kind === "pglite") return `PGlite in ${database.dir}`;
  try {
    const url = new URL(database.url);
    const name = url.pathname.replace(/^\//, "") || "(default database)";
    // Never print credentials: host, port and database name are enough to know where we are.
    return `PostgreSQL ${url.hostname}${url.port ? `:${url.port}` : ""}/${name}`;
  } catch {
    return "PostgreSQL (DATABASE_URL)";
  }
}

async function main(argv: string[]): Promise<number> {
  const [argument, ...rest] = argv;
  if (rest.length > 0 || (argument !== undefined && argument !== "up" && argument !== "down")) {
    logger.error(USAGE);
    return 2;
  }
  const direction: Direction = argument === "down" ? "down" : "up";

  let config: AppConfig;
  try {
    config = loadConfig();
  } catch (error) {
    logger.error(error instanceof ConfigError ? `db:migrate: ${error.message}` : `db:migrate: ${(error as Error).message}`);
    return 1;
  }

  logger.info(`db:migrate ${direction}: ${describeTarget(config.database)}`);
  const db = await openDatabase(config.database, { poolSize: 1 });
  try {
    const steps = direction === "up" ? await migrateToLatest(db) : await migrateDown(db);
    for (const step of steps) logger.info(`  ${step}`);
    if (steps.length === 0) logger.info(direction === "up" ? "  already at the latest migration" : "  no migration to undo");
    return 0;
  } catch (error) {
    logger.error(`db:migrate ${direction} failed:`, error);
    return 1;
  } finally {
    await db.destroy();
  }
}

process.exitCode = await main(process.argv.slice(2));
