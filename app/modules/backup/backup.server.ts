import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { PassThrough, Readable, Transform } from "node:stream";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import { pipeline } from "node:stream/promises";
import { sql } from "kysely";
import pg from "pg";
import tar from "tar-stream";
import type { AppConfig } from "~/modules/config/config.server";
import { type DB, embeddedDatabaseOf } from "~/modules/db/db.server";
import type { BucketName, FileStorage, StoredObject } from "~/modules/storage/storage.server";
import { type ArchivedFile, type BackupManifest, MANIFEST_NAME, archiveEntryOf } from "./manifest";
import { filesNamedByRows, type NamedFile } from "~/modules/orders/stored-files.server";
import { countRows, type RunQuery } from "./stored-files.server";

/**
 * `npm run backup` (ADR 077): one archive of the database and the files its rows name, taken while
 * the service keeps serving. The database is read first — pg_dump in an exported snapshot, or the
 * embedded database's data directory — and the file list comes from that same state; the files are
 * read after, from the bucket or, when the service deleted one meanwhile, from the storage's
 * graveyard (storage/graveyard.ts).
 */

export interface BackupTarget {
  database: AppConfig["database"];
  /** The running app's database: the embedded one can only be read by the process that holds it. */
  db?: DB;
  storage: FileStorage;
}

export class BackupError extends Error {}

/** Files opened while earlier ones are written into the archive. */
const FILES_OPENED_AHEAD = 16;

function hashing(hash: ReturnType<typeof createHash>) {
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      done(null, chunk);
    },
  });
}

function run(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("exit", (code) => (code === 0 ? resolve() : reject(new BackupError(`${command} failed (${code}): ${stderr.trim()}`))));
  });
}

/** The database's dump, and what its rows said at that moment: the files they name and how many there are. */
interface DatabaseSnapshot {
  file: string;
  entry: string;
  named: NamedFile[];
  rows: Record<string, number>;
}

async function readRows(query: RunQuery): Promise<Pick<DatabaseSnapshot, "named" | "rows">> {
  return { named: await filesNamedByRows(query), rows: await countRows(query) };
}

/** pg_dump in a snapshot this connection exported and holds: the dump and the queries see the same rows. */
async function postgresSnapshot(url: string, workDir: string): Promise<DatabaseSnapshot> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query("begin isolation level repeatable read read only");
    const { rows } = await client.query<{ id: string }>("select pg_export_snapshot() as id");
    const file = path.join(workDir, "postgres.dump");
    await run("pg_dump", ["--format=custom", `--snapshot=${rows[0]!.id}`, `--file=${file}`, `--dbname=${url}`]);
    const read = await readRows(async <Row>(text: string) => (await client.query(text)).rows as Row[]);
    await client.query("commit");
    return { file, entry: "database/postgres.dump", ...read };
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * The embedded database's data directory, dumped by the process that holds it. The service's one
 * connection is held from the first read to the end of the dump, so no query or transaction of the
 * service runs in between: the rows read are exactly the dumped state, with no copy of the database
 * to open (that took longer than the dump, with the service waiting).
 */
async function embeddedSnapshot(db: DB, workDir: string): Promise<DatabaseSnapshot> {
  const pglite = embeddedDatabaseOf(db);
  if (!pglite) throw new BackupError("the embedded database is not open in this process");
  const { read, dump } = await db.connection().execute(async (connection) => {
    const read = await readRows(async <Row>(text: string) => (await sql.raw<Row>(text).execute(connection)).rows);
    return { read, dump: await pglite.dumpDataDir("none") };
  });
  const file = path.join(workDir, "pglite.tar");
  await pipeline(Readable.fromWeb(dump.stream() as NodeReadableStream<Uint8Array>), fs.createWriteStream(file, { mode: 0o600 }));
  return { file, entry: "database/pglite.tar", ...read };
}

/** Adds one entry of known size to the archive, hashing what goes in. */
async function addEntry(pack: tar.Pack, name: string, size: number, body: Readable): Promise<string> {
  const hash = createHash("sha256");
  const entry = pack.entry({ name, size, mode: 0o600 });
  await pipeline(body, hashing(hash), entry);
  return hash.digest("hex");
}

async function openFile(storage: FileStorage, bucket: BucketName, key: string): Promise<{ object: StoredObject; fromGraveyard: boolean } | null> {
  const object = await storage.get(bucket, key);
  if (object) return { object, fromGraveyard: false };
  const deleted = await storage.getDeleted(bucket, key);
  return deleted ? { object: deleted, fromGraveyard: true } : null;
}

export interface BackupHooks {
  /** Called once the database is read and before the files are: what the service does meanwhile is not in the archive. */
  afterDatabase?: () => Promise<void>;
}

export async function createBackup(target: BackupTarget, archivePath: string, hooks: BackupHooks = {}): Promise<BackupManifest> {
  const started = Date.now();
  const archive = path.resolve(archivePath);
  await fsp.mkdir(path.dirname(archive), { recursive: true });
  const workDir = await fsp.mkdtemp(path.join(path.dirname(archive), ".backup-"));
  const partial = `${archive}.part`;
  try {
    let snapshot: DatabaseSnapshot;
    if (target.database.kind === "postgres") snapshot = await postgresSnapshot(target.database.url, workDir);
    else if (target.db) snapshot = await embeddedSnapshot(target.db, workDir);
    else throw new BackupError("the embedded database must be backed up by the process that holds it");
    const { named, rows } = snapshot;
    await hooks.afterDatabase?.();

    const pack = tar.pack();
    const out = fs.createWriteStream(partial, { mode: 0o600 });
    const written = pipeline(pack, out);
    const databaseSize = (await fsp.stat(snapshot.file)).size;
    const databaseSha = await addEntry(pack, snapshot.entry, databaseSize, fs.createReadStream(snapshot.file));

    const files: ArchivedFile[] = [];
    const missing: BackupManifest["missing"] = [];
    const logos = (await target.storage.list("logos")).map((object) => ({ bucket: "logos" as const, key: object.key }));
    const wanted = [...named.map((file) => ({ bucket: "orders" as const, key: file.key })), ...logos];
    // The archive is written one entry after another, but the next files are opened meanwhile: a
    // file's cost is mostly waiting (a disk seek, an S3 round trip), so waiting for several at once
    // keeps the writer busy (bench/RESULTS.md "Backup and restore at five years").
    const opened = new Map<number, ReturnType<typeof openFile>>();
    let ahead = 0;
    try {
      for (let at = 0; at < wanted.length; at++) {
        for (; ahead < wanted.length && ahead <= at + FILES_OPENED_AHEAD; ahead++) {
          const opening = openFile(target.storage, wanted[ahead]!.bucket, wanted[ahead]!.key);
          opening.catch(() => undefined); // awaited in its turn; an early failure is not unhandled
          opened.set(ahead, opening);
        }
        const { bucket, key } = wanted[at]!;
        const found = await opened.get(at)!;
        opened.delete(at);
        if (!found) {
          missing.push({ bucket, key });
          continue;
        }
        const sha256 = await addEntry(pack, archiveEntryOf(bucket, key), found.object.size, found.object.body);
        files.push({ bucket, key, size: found.object.size, sha256, ...(found.fromGraveyard ? { fromGraveyard: true } : {}) });
      }
    } finally {
      // A backup that failed midway closes what it had opened ahead.
      for (const opening of opened.values()) void opening.then((found) => found?.object.body.destroy(), () => undefined);
    }

    const manifest: BackupManifest = {
      format: 1,
      createdAt: new Date(started).toISOString(),
      database: { kind: target.database.kind, entry: snapshot.entry, size: databaseSize, sha256: databaseSha },
      rows,
      files,
      missing,
      ms: Date.now() - started,
    };
    const text = Buffer.from(JSON.stringify(manifest, null, 1));
    const body = new PassThrough();
    body.end(text);
    await addEntry(pack, MANIFEST_NAME, text.length, body);
    pack.finalize();
    await written;
    await fsp.rename(partial, archive);
    return manifest;
  } finally {
    await fsp.rm(workDir, { recursive: true, force: true });
    await fsp.rm(partial, { force: true });
  }
}
