import "./load-env";
// `npm run restore -- ARCHIVE`: fills an empty database and storage from a backup (ADR 077), checks
// every byte against the archive's manifest, migrates to this version and checks that the database
// and the storage agree. Stop the service first; it refuses a database or storage that holds data.
import { ConfigError, loadConfig } from "../app/modules/config/config.server";
import { openDatabase } from "../app/modules/db/db.server";
import { createStorage } from "../app/modules/storage/storage.server";
import { restoreBackup } from "../app/modules/backup/restore.server";
import { checkStorage, storageProblems } from "../app/modules/backup/check-storage.server";
import { countRows } from "../app/modules/backup/stored-files.server";
import { migrateToLatest } from "../db/migrator";
import { sql } from "kysely";
import { logger } from "../app/modules/log/logger.server";

async function main(argv: string[]): Promise<number> {
  const archive = argv[0];
  if (!archive) {
    logger.error("usage: npm run restore -- ARCHIVE");
    return 1;
  }
  const config = loadConfig();
  const storage = createStorage(config);
  const report = await restoreBackup({ database: config.database, storage }, archive);
  logger.info(`restored ${report.files} files (${report.bytes} bytes) and the ${report.manifest.database.kind} database in ${report.ms} ms`);
  const db = await openDatabase(config.database);
  try {
    const rows = await countRows(async <Row,>(text: string) => (await sql.raw<Row>(text).execute(db)).rows);
    const differ = Object.entries(report.manifest.rows).filter(([table, count]) => rows[table] !== count);
    if (differ.length) {
      logger.error(`rows differ from the archive: ${differ.map(([table, count]) => `${table} ${rows[table]} ≠ ${count}`).join(", ")}`);
      return 2;
    }
    const steps = await migrateToLatest(db);
    if (steps.length) logger.info(`migrations: ${steps.join(", ")}`);
    const check = await checkStorage(db, storage, { manifest: report.manifest });
    logger.info(`check: ${JSON.stringify(check.counts)}`);
    return storageProblems(check) > 0 ? 2 : 0;
  } finally {
    await db.destroy();
  }
}

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (error) {
  logger.error(error instanceof ConfigError ? error.message : error instanceof Error ? error.message : error);
  process.exitCode = 1;
}
