import { randomUUID } from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { AppConfig } from "~/modules/config/config.server";
import { ByteCounter } from "./body-length";
import { assertValidKey, assertValidPrefix } from "./keys";
import { graveyardStamp, isGraveyardStamp } from "./graveyard";
import { firstAtOrAfter, keptListingTime, removedOwnChild, sortedChildren } from "./sorted-folders.server";
import type { BucketName, FileStorage, ListedObject, ObjectInfo, PutOptions, StoredObject } from "./types";

type FolderStorageConfig = Extract<AppConfig["storage"], { kind: "folder" }>;

/*
 * Layout under config.dir:
 *   <bucket>/<key>          the objects themselves, so a developer can open them
 *   .tmp/<uuid>.part        bodies being written; renamed into place when complete
 *   .meta/<bucket>/<key>    {"contentType": ...} when one was given (a folder has no object metadata)
 *   .deleted/<bucket>/<stamp>/<key>   deleted objects, kept for a while (graveyard.ts)
 * Real bucket names never start with a dot, so the two service folders cannot collide with one.
 * Unlike S3, a key cannot be both an object and a "folder" of other keys ("a" and "a/b").
 */

const DELETE_BATCH = 100;

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === "ENOENT" || code === "ENOTDIR";
}

function byKeyBytes(a: ListedObject, b: ListedObject): number {
  // S3 lists in UTF-8 byte order; match it so both implementations page and sort alike.
  return Buffer.compare(Buffer.from(a.key), Buffer.from(b.key));
}

export function createFolderStorage(config: FolderStorageConfig, buckets: AppConfig["buckets"]): FileStorage {
  const root = path.resolve(config.dir);
  const tmpDir = path.join(root, ".tmp");
  const metaRoot = path.join(root, ".meta");
  const graveRoot = path.join(root, ".deleted");

  for (const name of Object.values(buckets)) {
    if (!name || name.startsWith(".") || /[/\\]/.test(name)) throw new Error(`Invalid storage bucket folder name: ${name}`);
  }

  const bucketDir = (bucket: BucketName) => path.join(root, buckets[bucket]);
  const objectPath = (bucket: BucketName, key: string) => {
    assertValidKey(key);
    return path.join(bucketDir(bucket), ...key.split("/"));
  };
  const metaPath = (bucket: BucketName, key: string) => path.join(metaRoot, buckets[bucket], ...key.split("/"));

  async function readContentType(bucket: BucketName, key: string): Promise<string | undefined> {
    try {
      const meta = JSON.parse(await fsp.readFile(metaPath(bucket, key), "utf8")) as { contentType?: unknown };
      return typeof meta.contentType === "string" ? meta.contentType : undefined;
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }

  /** rename(2) replaces the target atomically; the parent may vanish meanwhile (pruned by delete), so retry once. */
  async function moveIntoPlace(from: string, to: string): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      await fsp.mkdir(path.dirname(to), { recursive: true });
      try {
        await fsp.rename(from, to);
        return;
      } catch (error) {
        if (attempt > 0 || !isMissing(error)) throw error;
      }
    }
  }

  async function writeMeta(bucket: BucketName, key: string, contentType: string | undefined): Promise<void> {
    const target = metaPath(bucket, key);
    if (contentType === undefined) {
      await fsp.rm(target, { force: true });
      return;
    }
    const tmp = path.join(tmpDir, `${randomUUID()}.meta`);
    await fsp.writeFile(tmp, JSON.stringify({ contentType }));
    await moveIntoPlace(tmp, target);
  }

  /** Removes now-empty folders between `file` and `stopAt`, so deleted keys leave no trace. */
  async function pruneEmptyParents(file: string, stopAt: string): Promise<void> {
    for (let dir = path.dirname(file); dir.startsWith(stopAt + path.sep); dir = path.dirname(dir)) {
      const parent = path.dirname(dir);
      const listed = keptListingTime(parent);
      try {
        await fsp.rmdir(dir);
      } catch {
        return; // not empty (or already gone): the folders above are not empty either
      }
      // The parent's kept listing (the bucket's order folders) outlives this removal of our own.
      await removedOwnChild(parent, path.basename(dir), listed);
    }
  }

  const graveDir = (bucket: BucketName) => path.join(graveRoot, buckets[bucket]);

  /** The graveyard's hours of `bucket`, newest first. */
  async function graveStamps(bucket: BucketName): Promise<string[]> {
    try {
      return (await fsp.readdir(graveDir(bucket))).filter(isGraveyardStamp).sort().reverse();
    } catch (error) {
      if (isMissing(error)) return [];
      throw error;
    }
  }

  async function deleteOne(bucket: BucketName, key: string, stamp: string | null): Promise<void> {
    const file = objectPath(bucket, key);
    if (stamp === null) await fsp.rm(file, { force: true });
    else {
      // Into the graveyard (a rename: no bytes copied); a missing key is ignored. Only a file moves:
      // a folder at the key (another key's parent) is refused, as removing it would be.
      const grave = path.join(graveDir(bucket), stamp, ...key.split("/"));
      const stats = await fsp.lstat(file).catch((error: unknown) => {
        if (isMissing(error)) return null;
        throw error;
      });
      if (stats && !stats.isFile()) throw Object.assign(new Error(`cannot delete ${key}: not a file`), { code: "EISDIR" });
      try {
        await fsp.mkdir(path.dirname(grave), { recursive: true });
        await fsp.rename(file, grave);
      } catch (error) {
        if (!isMissing(error)) throw error;
      }
    }
    await pruneEmptyParents(file, bucketDir(bucket));
    const meta = metaPath(bucket, key);
    await fsp.rm(meta, { force: true });
    await pruneEmptyParents(meta, path.join(metaRoot, buckets[bucket]));
  }

  const storage: FileStorage = {
    kind: "folder",

    async put(bucket: BucketName, key: string, body: Readable, options: PutOptions = {}) {
      const target = objectPath(bucket, key);
      await fsp.mkdir(tmpDir, { recursive: true });
      const tmp = path.join(tmpDir, `${randomUUID()}.part`);
      const counter = new ByteCounter(options.contentLength);
      const out = fs.createWriteStream(tmp, { flags: "wx" });
      try {
        await pipeline(body, counter, out);
        await writeMeta(bucket, key, options.contentType);
        await moveIntoPlace(tmp, target);
      } catch (error) {
        // A body that fails at once can fail before the file is even open: wait until the stream has
        // closed (so the file exists or never will), then remove it — nothing half-written stays.
        if (!out.closed) await new Promise<void>((resolve) => out.once("close", () => resolve()));
        await fsp.rm(tmp, { force: true });
        throw error;
      }
      return { size: counter.bytes };
    },

    async get(bucket: BucketName, key: string): Promise<StoredObject | null> {
      const file = objectPath(bucket, key);
      let handle: fsp.FileHandle;
      try {
        handle = await fsp.open(file, "r");
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
      // Stat the open handle, not the path: a concurrent put may rename a new file into place.
      try {
        const stats = await handle.stat();
        if (!stats.isFile()) {
          await handle.close();
          return null;
        }
        return { body: handle.createReadStream(), size: stats.size, contentType: await readContentType(bucket, key) };
      } catch (error) {
        await handle.close();
        throw error;
      }
    },

    async head(bucket: BucketName, key: string): Promise<ObjectInfo | null> {
      const file = objectPath(bucket, key);
      try {
        const stats = await fsp.stat(file);
        if (!stats.isFile()) return null;
        return { size: stats.size, lastModified: stats.mtime, contentType: await readContentType(bucket, key) };
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
    },

    async copy(bucket: BucketName, fromKey: string, toKey: string) {
      const source = objectPath(bucket, fromKey);
      const target = objectPath(bucket, toKey);
      await fsp.mkdir(tmpDir, { recursive: true });
      const tmp = path.join(tmpDir, `${randomUUID()}.part`);
      try {
        // A copy-on-write clone where the file system has one, a plain copy elsewhere; renamed into
        // place whole, so a reader never sees half a copy.
        await fsp.copyFile(source, tmp, fs.constants.COPYFILE_EXCL | fs.constants.COPYFILE_FICLONE);
        const { size } = await fsp.stat(tmp);
        await writeMeta(bucket, toKey, await readContentType(bucket, fromKey));
        await moveIntoPlace(tmp, target);
        return { size };
      } catch (error) {
        await fsp.rm(tmp, { force: true });
        if (isMissing(error) && !(await fsp.stat(source).then(() => true, () => false))) return null;
        throw error;
      }
    },

    async delete(bucket: BucketName, keys: string[], options = {}) {
      for (const key of keys) assertValidKey(key); // all or nothing on a bad key
      const stamp = options.unrecorded ? null : graveyardStamp(new Date());
      for (let start = 0; start < keys.length; start += DELETE_BATCH) {
        await Promise.all(keys.slice(start, start + DELETE_BATCH).map((key) => deleteOne(bucket, key, stamp)));
      }
    },

    async getDeleted(bucket: BucketName, key: string): Promise<StoredObject | null> {
      assertValidKey(key);
      for (const stamp of await graveStamps(bucket)) {
        const file = path.join(graveDir(bucket), stamp, ...key.split("/"));
        try {
          const handle = await fsp.open(file, "r");
          const stats = await handle.stat();
          if (stats.isFile()) return { body: handle.createReadStream(), size: stats.size };
          await handle.close();
        } catch (error) {
          if (!isMissing(error)) throw error;
        }
      }
      return null;
    },

    async purgeDeleted(bucket: BucketName, before: Date, limit: number) {
      const cutoff = graveyardStamp(before);
      const old = (await graveStamps(bucket)).filter((stamp) => stamp < cutoff).reverse().slice(0, limit);
      for (const stamp of old) await fsp.rm(path.join(graveDir(bucket), stamp), { recursive: true, force: true });
      return old.length;
    },

    async list(bucket: BucketName, prefix = "") {
      assertValidPrefix(prefix);
      // Only the folder holding the prefix's last "/" can contain matches.
      const baseKey = prefix.includes("/") ? prefix.slice(0, prefix.lastIndexOf("/")) : "";
      const found: ListedObject[] = [];

      async function walk(dir: string, dirKey: string): Promise<void> {
        let entries: fs.Dirent[];
        try {
          entries = await fsp.readdir(dir, { withFileTypes: true });
        } catch (error) {
          if (isMissing(error)) return;
          throw error;
        }
        for (const entry of entries) {
          const key = dirKey ? `${dirKey}/${entry.name}` : entry.name;
          if (entry.isDirectory()) {
            if (`${key}/`.startsWith(prefix) || prefix.startsWith(`${key}/`)) await walk(path.join(dir, entry.name), key);
          } else if (entry.isFile() && key.startsWith(prefix)) {
            try {
              const stats = await fsp.stat(path.join(dir, entry.name));
              found.push({ key, size: stats.size, lastModified: stats.mtime });
            } catch (error) {
              if (!isMissing(error)) throw error; // deleted while listing
            }
          }
        }
      }

      await walk(baseKey ? path.join(bucketDir(bucket), ...baseKey.split("/")) : bucketDir(bucket), baseKey);
      return found.sort(byKeyBytes);
    },

    async listAfter(bucket: BucketName, startAfter: string | null, limit: number) {
      // One page in S3's byte order, read as far as the page needs: folders are walked in the byte
      // order of their keys (a folder sorts as its name and "/"), and a folder whose every key lies
      // at or before the cursor is not opened. Reading the whole bucket for every page made a walk
      // of n objects cost n²/1000 (530,000 files: hours).
      const max = Math.min(Math.max(1, limit), 1000);
      const after = startAfter === null ? null : Buffer.from(startAfter);
      const objects: ListedObject[] = [];
      let more = false;

      async function walk(dir: string, dirKey: string): Promise<boolean> {
        const children = await sortedChildren(dir, dirKey);
        if (children === null) return false;
        for (let at = after ? firstAtOrAfter(children, after) : 0; at < children.length; at++) {
          const { name, isDirectory, key, order } = children[at]!;
          if (isDirectory) {
            // Every key inside starts with `order`: all at or before the cursor unless the cursor lies inside.
            if (after && Buffer.compare(order, after) <= 0 && !after.subarray(0, order.length).equals(order)) continue;
            if (await walk(path.join(dir, name), key)) return true;
            continue;
          }
          if (after && Buffer.compare(order, after) <= 0) continue;
          if (objects.length === max) {
            more = true;
            return true;
          }
          try {
            const stats = await fsp.stat(path.join(dir, name));
            if (stats.isFile()) objects.push({ key, size: stats.size, lastModified: stats.mtime });
          } catch (error) {
            if (!isMissing(error)) throw error; // deleted while listing
          }
        }
        return false;
      }

      await walk(bucketDir(bucket), "");
      return { objects, last: more ? objects[objects.length - 1]!.key : null };
    },

    async ensureBuckets() {
      await fsp.mkdir(tmpDir, { recursive: true });
      for (const bucket of Object.keys(buckets) as BucketName[]) await fsp.mkdir(bucketDir(bucket), { recursive: true });
    },
  };
  return storage;
}
