import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import pg from "pg";
import tar from "tar-stream";
import type { AppConfig } from "~/modules/config/config.server";
import type { FileStorage } from "~/modules/storage/storage.server";
import { BUCKET_NAMES } from "~/modules/storage/storage.server";
import { type BackupManifest, MANIFEST_NAME, fileOfEntry } from "./manifest";

/**
 * `npm run restore ARCHIVE` (ADR 077): fills an EMPTY database and storage from a backup archive and
 * checks every byte against the manifest. It refuses a database with tables or a storage with files,
 * so it can never mix a restore into live data. Migrations newer than the archive run at the next start.
 */

export class RestoreError extends Error {}

export interface RestoreReport {
  manifest: BackupManifest;
  files: number;
  bytes: number;
  ms: number;
}

function hashing(hash: ReturnType<typeof createHash>) {
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      done(null, chunk);
    },
  });
}

async function assertEmptyTarget(database: AppConfig["database"], storage: FileStorage) {
  if (database.kind === "postgres") {
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      const { rows } = await client.query<{ count: number }>("select count(*)::int as count from pg_tables where schemaname = 'public'");
      if (rows[0]!.count > 0) throw new RestoreError("the database is not empty: restore into a new, empty database");
    } finally {
      await client.end();
    }
  } else {
    const entries = await fsp.readdir(database.dir).catch(() => [] as string[]);
    if (entries.length > 0) throw new RestoreError(`the embedded database folder ${database.dir} is not empty: move it away first`);
  }
  await storage.ensureBuckets();
  for (const bucket of BUCKET_NAMES) {
    const { objects } = await storage.listAfter(bucket, null, 1);
    if (objects.length > 0) throw new RestoreError(`the storage's ${bucket} bucket is not empty: restore into empty storage`);
  }
}

function run(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("exit", (code) => (code === 0 ? resolve() : reject(new RestoreError(`${command} failed (${code}): ${stderr.trim()}`))));
  });
}

/** Files up to this size are read whole and stored several at once; larger ones stream one at a time. */
const SMALL_FILE_BYTES = 4 * 1024 * 1024;
const PUTS_AT_ONCE = 16;

/**
 * At most `limit` writes in flight: `add` waits for a free place, `drain` for all; the first failure
 * is thrown by the next `add` or `drain`, so a restore that cannot write stops there.
 */
function boundedPuts(limit: number) {
  const running = new Set<Promise<void>>();
  let failure: unknown = null;
  const check = () => {
    if (failure) throw failure;
  };
  return {
    async add(put: () => Promise<unknown>) {
      check();
      while (running.size >= limit) await Promise.race(running);
      check();
      const done: Promise<void> = put().then(
        () => void running.delete(done),
        (error: unknown) => {
          failure ??= error;
          running.delete(done);
        },
      );
      running.add(done);
    },
    async drain() {
      await Promise.all(running);
      check();
    },
  };
}

export async function restoreBackup(target: { database: AppConfig["database"]; storage: FileStorage }, archivePath: string): Promise<RestoreReport> {
  const started = Date.now();
  await assertEmptyTarget(target.database, target.storage);
  const workDir = await fsp.mkdtemp(path.join(path.dirname(path.resolve(archivePath)), ".restore-"));
  try {
    const sums = new Map<string, string>();
    let databaseFile: string | null = null;
    let manifestText = "";
    let bytes = 0;
    const puts = boundedPuts(PUTS_AT_ONCE);
    const extract = tar.extract();
    const reading = pipeline(fs.createReadStream(archivePath), extract);
    for await (const entry of extract) {
      const name = entry.header.name;
      const hash = createHash("sha256");
      const file = fileOfEntry(name);
      if (name === MANIFEST_NAME) {
        for await (const chunk of entry) manifestText += (chunk as Buffer).toString();
        continue;
      }
      if (name.startsWith("database/")) {
        databaseFile = path.join(workDir, path.basename(name));
        await pipeline(entry, hashing(hash), fs.createWriteStream(databaseFile));
      } else if (file) {
        const size = entry.header.size ?? 0;
        if (size <= SMALL_FILE_BYTES) {
          // A small file is read whole and stored while the next entries are read: several puts at once.
          const chunks: Buffer[] = [];
          for await (const chunk of entry) {
            hash.update(chunk as Buffer);
            chunks.push(chunk as Buffer);
          }
          await puts.add(() => target.storage.put(file.bucket, file.key, Readable.from([Buffer.concat(chunks)]), { contentLength: size }));
        } else {
          await puts.drain();
          await target.storage.put(file.bucket, file.key, entry.pipe(hashing(hash)), { contentLength: size });
        }
        bytes += size;
      } else {
        entry.resume();
        continue;
      }
      sums.set(name, hash.digest("hex"));
    }
    await reading;
    await puts.drain();
    if (!manifestText) throw new RestoreError("the archive has no manifest: it is incomplete");
    const manifest = JSON.parse(manifestText) as BackupManifest;
    if (manifest.format !== 1) throw new RestoreError(`unknown archive format ${String(manifest.format)}`);
    if (manifest.database.kind !== target.database.kind)
      throw new RestoreError(`the archive holds a ${manifest.database.kind} database; this configuration uses ${target.database.kind}`);

    const bad: string[] = [];
    if (sums.get(manifest.database.entry) !== manifest.database.sha256) bad.push(manifest.database.entry);
    for (const file of manifest.files) {
      const name = `files/${file.bucket}/${file.key}`;
      if (sums.get(name) !== file.sha256) bad.push(name);
    }
    if (bad.length) throw new RestoreError(`checksums do not match the manifest for ${bad.length} entr${bad.length === 1 ? "y" : "ies"}: ${bad.slice(0, 10).join(", ")}`);
    if (!databaseFile) throw new RestoreError("the archive has no database");

    if (target.database.kind === "postgres") {
      await run("pg_restore", ["--no-owner", "--no-privileges", "--exit-on-error", `--dbname=${target.database.url}`, databaseFile]);
    } else {
      const [{ PGlite }, { pg_trgm }, { btree_gin }] = await Promise.all([import("@electric-sql/pglite"), import("@electric-sql/pglite/contrib/pg_trgm"), import("@electric-sql/pglite/contrib/btree_gin")]);
      const blob = new Blob([await fsp.readFile(databaseFile)]);
      const restored = await PGlite.create(target.database.dir, { loadDataDir: blob, extensions: { pg_trgm, btree_gin } });
      await restored.close();
    }
    return { manifest, files: manifest.files.length, bytes, ms: Date.now() - started };
  } finally {
    await fsp.rm(workDir, { recursive: true, force: true });
  }
}

/** The manifest of an archive (its last entry), without restoring anything. */
export async function readManifest(archivePath: string): Promise<BackupManifest> {
  const extract = tar.extract();
  const reading = pipeline(fs.createReadStream(archivePath), extract);
  let text = "";
  for await (const entry of extract) {
    if (entry.header.name === MANIFEST_NAME) for await (const chunk of entry) text += (chunk as Buffer).toString();
    else entry.resume();
  }
  await reading;
  if (!text) throw new RestoreError("the archive has no manifest: it is incomplete");
  return JSON.parse(text) as BackupManifest;
}
