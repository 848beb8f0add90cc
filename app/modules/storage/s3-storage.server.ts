import {
  CopyObjectCommand,
  CreateBucketCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  S3Client,
  type S3ClientConfig,
  S3ServiceException,
} from "@aws-sdk/client-s3";
import { Readable } from "node:stream";
import type { AppConfig } from "~/modules/config/config.server";
import { assertValidKey, assertValidPrefix } from "./keys";
import { putStreamed } from "./s3-multipart.server";
import { AFTER_GRAVEYARD, DELETED_OBJECTS_KEPT_HOURS, GRAVEYARD_PREFIX, graveyardStamp, isGraveyardStamp } from "./graveyard";
import type { BucketName, FileStorage, ListedObject, PutOptions } from "./types";

type S3StorageConfig = Extract<AppConfig["storage"], { kind: "s3" }>;

// An upload holds PARTS_IN_FLIGHT + 1 buffers of PART_SIZE (./s3-multipart.server). 5 MiB is S3's
// minimum part size; bodies arrive from browsers far slower than S3 takes them, so two parts in
// flight keep up while several uploads at once stay cheap.
const PART_SIZE = 5 * 1024 * 1024;
const PARTS_IN_FLIGHT = 2;
const DELETE_BATCH = 100;
/** Server-side copies into the graveyard at once. */
const COPIES_AT_ONCE = 16;
// An S3 server that stopped answering (lost network, wedged host) must fail the request — the
// upload then reports a storage error — instead of hanging it: at most this long to connect, and
// S3_TIMEOUT_MS (default 15 s) without a byte moving on an open request. Parts are sent whole from
// memory, so a slow browser never leaves an S3 request idle.
const CONNECT_TIMEOUT_MS = 5_000;
const DEFAULT_IDLE_TIMEOUT_MS = 15_000;

function isNotFound(error: unknown): boolean {
  if (!(error instanceof S3ServiceException)) return false;
  return error.name === "NoSuchKey" || error.name === "NotFound" || error.name === "NoSuchBucket" || error.$metadata.httpStatusCode === 404;
}

/** The client settings every S3 client of the app shares (storage and the resumable-upload store). */
export function s3ClientOptions(config: S3StorageConfig) {
  return {
    endpoint: config.endpoint,
    region: config.region,
    credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey },
    forcePathStyle: config.forcePathStyle,
    // The SDK's default checksums wrap streamed bodies in aws-chunked framing, which some
    // S3-compatible servers (s3rver among them) store as data. Only checksum where S3 demands it.
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
    requestHandler: { connectionTimeout: CONNECT_TIMEOUT_MS, socketTimeout: config.timeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS },
  } satisfies S3ClientConfig;
}

export function createS3Client(config: S3StorageConfig): S3Client {
  return new S3Client(s3ClientOptions(config));
}

function toListed(contents: { Key?: string; Size?: number; LastModified?: Date }[] | undefined): ListedObject[] {
  const objects: ListedObject[] = [];
  for (const object of contents ?? []) {
    if (object.Key === undefined || object.Key.startsWith(GRAVEYARD_PREFIX)) continue;
    objects.push({ key: object.Key, size: object.Size ?? 0, lastModified: object.LastModified ?? new Date(0) });
  }
  return objects;
}

export function createS3Storage(config: S3StorageConfig, buckets: AppConfig["buckets"], client = createS3Client(config)): FileStorage {
  const bucketName = (bucket: BucketName) => buckets[bucket];

  async function deleteKeys(bucket: BucketName, keys: string[]) {
    for (let start = 0; start < keys.length; start += DELETE_BATCH) {
      const batch = keys.slice(start, start + DELETE_BATCH);
      const response = await client.send(
        new DeleteObjectsCommand({
          Bucket: bucketName(bucket),
          Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true },
        }),
      );
      // DeleteObjects answers 200 even when single keys fail; surface those.
      const failed = response.Errors ?? [];
      if (failed.length > 0) {
        const details = failed.map((failure) => `${failure.Key}: ${failure.Code} ${failure.Message ?? ""}`.trim());
        throw new Error(`S3 could not delete ${failed.length} object(s): ${details.join("; ")}`);
      }
    }
  }

  /**
   * The oldest hour of the graveyard, or null: one list call. (Listed by StartAfter, not Prefix: some
   * S3-compatible servers do not match a prefix that starts with "~".)
   */
  async function oldestGraveStamp(bucket: BucketName, after = GRAVEYARD_PREFIX): Promise<string | null> {
    const page = await client.send(new ListObjectsV2Command({ Bucket: bucketName(bucket), StartAfter: after, MaxKeys: 1 }));
    const key = page.Contents?.[0]?.Key;
    if (!key?.startsWith(GRAVEYARD_PREFIX)) return null;
    const stamp = key.slice(GRAVEYARD_PREFIX.length).split("/")[0]!;
    return isGraveyardStamp(stamp) ? stamp : null;
  }

  return {
    kind: "s3",

    async put(bucket: BucketName, key: string, body: Readable, options: PutOptions = {}) {
      assertValidKey(key);
      try {
        const size = await putStreamed(client, { Bucket: bucketName(bucket), Key: key, ContentType: options.contentType }, body, {
          partSize: PART_SIZE,
          partsInFlight: PARTS_IN_FLIGHT,
          contentLength: options.contentLength,
        });
        return { size };
      } finally {
        body.destroy(); // released on every outcome (a no-op once it ended)
      }
    },

    async get(bucket: BucketName, key: string) {
      assertValidKey(key);
      try {
        const response = await client.send(new GetObjectCommand({ Bucket: bucketName(bucket), Key: key }));
        if (!(response.Body instanceof Readable)) throw new Error("S3 GetObject returned no Node.js stream");
        return { body: response.Body, size: response.ContentLength ?? 0, contentType: response.ContentType };
      } catch (error) {
        if (isNotFound(error)) return null;
        throw error;
      }
    },

    async head(bucket: BucketName, key: string) {
      assertValidKey(key);
      try {
        const response = await client.send(new HeadObjectCommand({ Bucket: bucketName(bucket), Key: key }));
        return { size: response.ContentLength ?? 0, contentType: response.ContentType, lastModified: response.LastModified ?? new Date(0) };
      } catch (error) {
        if (isNotFound(error)) return null;
        throw error;
      }
    },

    async copy(bucket: BucketName, fromKey: string, toKey: string) {
      assertValidKey(fromKey);
      assertValidKey(toKey);
      // One request: S3 copies the bytes itself (up to 5 GB an object, above an order's whole
      // allowance). The source names its bucket and key, URL-encoded segment by segment.
      const source = [bucketName(bucket), ...fromKey.split("/")].map(encodeURIComponent).join("/");
      try {
        await client.send(new CopyObjectCommand({ Bucket: bucketName(bucket), Key: toKey, CopySource: source, MetadataDirective: "COPY" }));
      } catch (error) {
        if (isNotFound(error)) return null;
        throw error;
      }
      const copied = await client.send(new HeadObjectCommand({ Bucket: bucketName(bucket), Key: toKey }));
      return { size: copied.ContentLength ?? 0 };
    },

    async delete(bucket: BucketName, keys: string[], options = {}) {
      for (const key of keys) assertValidKey(key);
      // Copied into the graveyard by the server (no bytes through here), then deleted.
      const stamp = graveyardStamp(new Date());
      for (let start = 0; start < keys.length && !options.unrecorded; start += COPIES_AT_ONCE) {
        await Promise.all(
          keys.slice(start, start + COPIES_AT_ONCE).map((key) =>
            client
              .send(
                new CopyObjectCommand({
                  Bucket: bucketName(bucket),
                  Key: `${GRAVEYARD_PREFIX}${stamp}/${key}`,
                  CopySource: `${bucketName(bucket)}/${key.split("/").map(encodeURIComponent).join("/")}`,
                }),
              )
              .catch((error: unknown) => {
                if (!isNotFound(error)) throw error;
              }),
          ),
        );
      }
      await deleteKeys(bucket, keys);
    },

    async getDeleted(bucket: BucketName, key: string) {
      assertValidKey(key);
      // Hour by hour back from now, past the time the graveyard keeps (a purge may be late).
      for (let hour = 0; hour <= DELETED_OBJECTS_KEPT_HOURS + 6; hour++) {
        const stamp = graveyardStamp(new Date(Date.now() - hour * 3_600_000));
        try {
          const response = await client.send(new GetObjectCommand({ Bucket: bucketName(bucket), Key: `${GRAVEYARD_PREFIX}${stamp}/${key}` }));
          if (!(response.Body instanceof Readable)) throw new Error("S3 GetObject returned no Node.js stream");
          return { body: response.Body, size: response.ContentLength ?? 0, contentType: response.ContentType };
        } catch (error) {
          if (!isNotFound(error)) throw error;
        }
      }
      return null;
    },

    async purgeDeleted(bucket: BucketName, before: Date, limit: number) {
      const cutoff = graveyardStamp(before);
      let purged = 0;
      for (let stamp = await oldestGraveStamp(bucket); stamp !== null && stamp < cutoff && purged < limit; stamp = await oldestGraveStamp(bucket)) {
        const prefix = `${GRAVEYARD_PREFIX}${stamp}/`;
        for (;;) {
          const page = await client.send(new ListObjectsV2Command({ Bucket: bucketName(bucket), StartAfter: prefix, MaxKeys: 1000 }));
          const keys = (page.Contents ?? []).flatMap((object) => (object.Key?.startsWith(prefix) ? [object.Key] : []));
          if (keys.length === 0) break;
          await deleteKeys(bucket, keys);
        }
        purged++;
      }
      return purged;
    },

    async list(bucket: BucketName, prefix = "") {
      assertValidPrefix(prefix);
      const found: ListedObject[] = [];
      let continuationToken: string | undefined;
      do {
        const page = await client.send(
          new ListObjectsV2Command({ Bucket: bucketName(bucket), Prefix: prefix || undefined, ContinuationToken: continuationToken }),
        );
        found.push(...toListed(page.Contents));
        continuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (continuationToken);
      return found;
    },

    async listAfter(bucket: BucketName, startAfter: string | null, limit: number) {
      const page = await client.send(
        new ListObjectsV2Command({ Bucket: bucketName(bucket), StartAfter: startAfter ?? undefined, MaxKeys: Math.min(Math.max(1, limit), 1000) }),
      );
      // The graveyard is out of every listing: a page that reaches it goes on after it.
      const objects = toListed(page.Contents);
      const rawLast = page.Contents?.at(-1)?.Key;
      if (!page.IsTruncated || rawLast === undefined) return { objects, last: null };
      return { objects, last: rawLast.startsWith(GRAVEYARD_PREFIX) ? AFTER_GRAVEYARD : rawLast };
    },

    async ensureBuckets() {
      for (const name of new Set(Object.values(buckets))) {
        try {
          await client.send(new HeadBucketCommand({ Bucket: name }));
          continue;
        } catch (error) {
          if (!isNotFound(error)) throw error;
        }
        try {
          await client.send(new CreateBucketCommand({ Bucket: name }));
        } catch (error) {
          // Another instance starting at the same time may have created it first; services name
          // that answer differently (BucketAlreadyOwnedByYou, BucketAlreadyExists), so look again.
          if (error instanceof S3ServiceException && error.name === "BucketAlreadyOwnedByYou") continue;
          const exists = await client.send(new HeadBucketCommand({ Bucket: name })).then(
            () => true,
            () => false,
          );
          if (!exists) throw error;
        }
      }
    },
  };
}
