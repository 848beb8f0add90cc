/**
 * Backup and restore at five years of data (issue 45, ADR 077): how long `npm run backup` and
 * `npm run restore` take on the large data set of bench/scale.mts (300,000 orders; generated first
 * when missing) on PostgreSQL and a folder storage, and how big the archive is.
 *
 *   node --import tsx bench/backup.mts [--database aligner_scale_v1] [--object-bytes 1024]
 *
 * Works on a copy of the data set in the state the scheduled job keeps it in: the models of orders
 * shipped, completed or cancelled more than the models' period ago are gone (ADR 074), so the live
 * files are those of recent and unfinished orders. Every live file is written to the storage as an
 * object of `--object-bytes` (the rows' recorded sizes are set to match, so `check:storage` agrees):
 * real models are ~9 MB each and would need terabytes here; their bytes take the same tar-and-SHA-256
 * path as the database dump, whose rate is printed, so a lab can scale the files' time by its bytes.
 *
 * Prints each phase's time, the archive's size, the row counts compared, and check:storage's counts.
 */
import fs from "node:fs";
import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { parseArgs } from "node:util";
import { Kysely, PostgresDialect, sql } from "kysely";
import pg from "pg";
import { createBackup } from "../app/modules/backup/backup.server";
import { checkStorage, storageProblems } from "../app/modules/backup/check-storage.server";
import { restoreBackup } from "../app/modules/backup/restore.server";
import { countRows } from "../app/modules/backup/stored-files.server";
import { filesNamedByRows } from "../app/modules/orders/stored-files.server";
import { DEFAULT_RETENTION } from "../app/modules/config/retention";
import { openDatabase } from "../app/modules/db/db.server";
import { createStorage } from "../app/modules/storage/storage.server";
import { migrateToLatest } from "../db/migrator";
import { ensureScaleDatabase } from "./lib/scale-data";
import { type Figure, printResult } from "./lib/result";

const { values } = parseArgs({
  options: {
    database: { type: "string", default: "aligner_scale_v1" },
    "object-bytes": { type: "string", default: "1024" },
  },
});
const OBJECT_BYTES = Number(values["object-bytes"]);
const serverUrl = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const BASE = values.database!;
const RUN = `${BASE}_backup`;
const RESTORED = `${BASE}_restored`;
const urlOf = (name: string) => Object.assign(new URL(serverUrl), { pathname: `/${name}` }).toString();
const log = (line: string) => console.log(line);
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MiB`;

async function admin<T>(run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}
const dropDatabase = (name: string) => admin((client) => client.query(`drop database if exists ${pg.escapeIdentifier(name)} with (force)`));

async function timed<T>(name: string, run: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await run();
  const ms = performance.now() - started;
  log(`${name}: ${seconds(ms)}`);
  return { value, ms };
}

const large = await ensureScaleDatabase(serverUrl, BASE, "large", log);
{
  const db = new Kysely<any>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: large.url, max: 1 }) }) });
  try {
    await migrateToLatest(db);
  } finally {
    await db.destroy();
  }
}
await dropDatabase(RUN);
await dropDatabase(RESTORED);
await admin((client) => client.query(`create database ${pg.escapeIdentifier(RUN)} template ${pg.escapeIdentifier(BASE)} strategy file_copy`));
await admin((client) => client.query(`create database ${pg.escapeIdentifier(RESTORED)}`));

const root = await fsp.mkdtemp(path.join(os.tmpdir(), "bench-backup-"));
const buckets = { orders: "orders", logos: "logos" };
const source = { database: { kind: "postgres" as const, url: urlOf(RUN) }, storage: createStorage({ storage: { kind: "folder", dir: path.join(root, "source") }, buckets }) };
const target = { database: { kind: "postgres" as const, url: urlOf(RESTORED) }, storage: createStorage({ storage: { kind: "folder", dir: path.join(root, "restored") }, buckets }) };
const archive = path.join(root, "backup.tar");

try {
  const db = await openDatabase(source.database);
  let liveFiles: { key: string; size: number }[];
  try {
    // The state the scheduled job keeps: delivered orders' models gone after the models' period.
    const removed = await sql`update orders set storage_removed_at = updated_at + make_interval(days => ${DEFAULT_RETENTION.models})
      where status in ('shipped', 'completed', 'cancelled') and storage_removed_at is null
        and updated_at < now() - make_interval(days => ${DEFAULT_RETENTION.models})`.execute(db);
    log(`orders whose models the job has removed: ${removed.numAffectedRows}`);
    const resize = (column: string) =>
      sql.raw(`${column} = (select coalesce(jsonb_agg(case when f ? 'storagePath' then jsonb_set(f, '{size}', '${OBJECT_BYTES}') else f end), '[]'::jsonb) from jsonb_array_elements(${column}) f)`);
    await sql`update orders_patients p set ${resize("matrix_files_info")}, ${resize("aligner_files_info")}, ${resize("retainer_files_info")}
      from orders o where o.id = p.order_id and o.storage_removed_at is null`.execute(db);
    await sql`vacuum analyze orders_patients`.execute(db);
    await sql`vacuum analyze orders`.execute(db);
    liveFiles = await filesNamedByRows(async <Row,>(text: string) => (await sql.raw<Row>(text).execute(db)).rows);
  } finally {
    await db.destroy();
  }
  log(`live files the rows name: ${liveFiles.length}`);
  const body = Buffer.alloc(OBJECT_BYTES, 7);
  await timed(`writing ${liveFiles.length} objects of ${OBJECT_BYTES} B`, async () => {
    for (let at = 0; at < liveFiles.length; at += 64) {
      await Promise.all(liveFiles.slice(at, at + 64).map((file) => source.storage.put("orders", file.key, Readable.from([body]), { contentLength: OBJECT_BYTES })));
    }
  });

  const backup = await timed("backup (pg_dump in a snapshot, then the files)", () => createBackup(source, archive));
  const manifest = backup.value;
  const archiveBytes = fs.statSync(archive).size;
  log(`archive: ${mib(archiveBytes)} (database dump ${mib(manifest.database.size)}, ${manifest.files.length} files, ${manifest.missing.length} missing)`);

  const restore = await timed("restore (pg_restore, then the files checked against the manifest)", () => restoreBackup(target, archive));

  const restoredDb = await openDatabase(target.database);
  let differ: string[] = [];
  let check;
  try {
    const rows = await countRows(async <Row,>(text: string) => (await sql.raw<Row>(text).execute(restoredDb)).rows);
    differ = Object.entries(manifest.rows).filter(([table, count]) => rows[table] !== count).map(([table]) => table);
    log(`rows: ${Object.entries(manifest.rows).map(([table, count]) => `${table} ${count}`).join(", ")}; differing: ${differ.length}`);
    check = await timed("check:storage on the restored database and storage", () => checkStorage(restoredDb, target.storage, { manifest }));
    log(`check: ${JSON.stringify(check.value.counts)}`);
  } finally {
    await restoredDb.destroy();
  }

  const dumpRate = manifest.database.size / 1024 / 1024 / (backup.ms / 1000);
  const figures: Figure[] = [
    { name: "backup at five years (300,000 orders; live files as small objects)", figure: seconds(backup.ms), target: "reported", met: null, value: backup.ms },
    { name: "archive size", figure: mib(archiveBytes), target: "reported", met: null, value: archiveBytes },
    { name: "database dump in the archive (pg_dump custom format)", figure: mib(manifest.database.size), target: "reported", met: null, value: manifest.database.size },
    { name: "live files archived (models of recent and unfinished orders)", figure: String(manifest.files.length), target: "reported", met: null, value: manifest.files.length },
    { name: "restore into an empty database and storage", figure: seconds(restore.ms), target: "reported", met: null, value: restore.ms },
    { name: "rows restored equal to the archive's counts", figure: differ.length ? `${differ.length} tables differ` : "all tables equal", target: "all equal", met: differ.length === 0 },
    { name: "check:storage after the restore", figure: `${storageProblems(check!.value)} problems in ${seconds(check!.ms)}`, target: "0 problems", met: storageProblems(check!.value) === 0 },
    { name: "backup's overall rate over the dump's bytes", figure: `${dumpRate.toFixed(1)} MiB/s`, target: "reported", met: null, value: dumpRate },
  ];
  printResult({ bench: "backup", figures, loadavg: os.loadavg() });
} finally {
  await fsp.rm(root, { recursive: true, force: true });
  await dropDatabase(RUN);
  await dropDatabase(RESTORED);
}
