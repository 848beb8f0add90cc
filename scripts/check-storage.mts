import "./load-env";
// `npm run check:storage [-- ARCHIVE]`: do the database and the storage agree (ADR 077)? Lists rows
// naming missing files, files no row names, size mismatches and — given a backup archive — files
// whose bytes differ from the archived ones. Exit code 2 when anything is found.
import { ConfigError, loadConfig } from "../app/modules/config/config.server";
import { openDatabase } from "../app/modules/db/db.server";
import { createStorage } from "../app/modules/storage/storage.server";
import { checkStorage, storageProblems } from "../app/modules/backup/check-storage.server";
import { readManifest } from "../app/modules/backup/restore.server";
import { logger } from "../app/modules/log/logger.server";

async function main(argv: string[]): Promise<number> {
  const config = loadConfig();
  const manifest = argv[0] ? await readManifest(argv[0]) : undefined;
  const db = await openDatabase(config.database);
  try {
    const report = await checkStorage(db, createStorage(config), { manifest });
    process.stdout.write(`${JSON.stringify(report, null, 1)}\n`);
    return storageProblems(report) > 0 ? 2 : 0;
  } finally {
    await db.destroy();
  }
}

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (error) {
  logger.error(error instanceof ConfigError ? error.message : error);
  process.exitCode = 1;
}
