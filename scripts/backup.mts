import "./load-env";
// `npm run backup [-- ARCHIVE]`: one archive of the database and its files (ADR 077), while the
// service keeps serving. Without a path it writes DATA_DIR/backups/backup-<time>.tar. With the
// embedded database the serving process takes it (it alone holds the database); when none runs,
// this script opens the database itself.
import path from "node:path";
import { ConfigError, loadConfig } from "../app/modules/config/config.server";
import { openDatabase } from "../app/modules/db/db.server";
import { createStorage } from "../app/modules/storage/storage.server";
import { createBackup } from "../app/modules/backup/backup.server";
import { requestBackup } from "../app/modules/backup/control.server";
import type { BackupManifest } from "../app/modules/backup/manifest";
import { logger } from "../app/modules/log/logger.server";

async function main(argv: string[]): Promise<number> {
  const config = loadConfig();
  const stamp = new Date().toISOString().replace(/[:.]/g, "-");
  const archive = path.resolve(argv[0] ?? path.join(config.dataDir, "backups", `backup-${stamp}.tar`));
  let manifest: BackupManifest | null = null;
  if (config.database.kind === "pglite") manifest = await requestBackup(config, archive);
  if (!manifest) {
    const db = config.database.kind === "pglite" ? await openDatabase(config.database) : undefined;
    try {
      manifest = await createBackup({ database: config.database, db, storage: createStorage(config) }, archive);
    } finally {
      await db?.destroy();
    }
  }
  const bytes = manifest.files.reduce((sum, file) => sum + file.size, 0) + manifest.database.size;
  logger.info(`backup: ${archive}`);
  logger.info(`  database (${manifest.database.kind}): ${manifest.database.size} bytes; rows: ${JSON.stringify(manifest.rows)}`);
  logger.info(`  files: ${manifest.files.length} (${manifest.files.filter((file) => file.fromGraveyard).length} deleted meanwhile), ${bytes} bytes in all, ${manifest.ms} ms`);
  if (manifest.missing.length) {
    logger.error(`  ${manifest.missing.length} files the rows name were missing from the storage: ${manifest.missing.slice(0, 20).map((file) => file.key).join(", ")}`);
    return 2;
  }
  return 0;
}

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (error) {
  logger.error(error instanceof ConfigError ? error.message : error);
  process.exitCode = 1;
}
