/** The file storage interface (S3 or a folder), imported by the factory and by each implementation. */
import type { Readable } from "node:stream";

/** Logical buckets; `config.buckets` maps them to the real bucket (or folder) names. */
export type BucketName = "orders" | "logos";

export const BUCKET_NAMES: readonly BucketName[] = ["orders", "logos"];

export interface PutOptions {
  contentType?: string;
  /** When given, the put fails (and stores nothing) unless the body has exactly this many bytes. */
  contentLength?: number;
}

export interface StoredObject {
  /** Must be consumed or destroyed, otherwise the file handle / HTTP connection stays open. */
  body: Readable;
  size: number;
  contentType?: string;
}

export interface ObjectInfo {
  size: number;
  contentType?: string;
  lastModified: Date;
}

export interface ListedObject {
  key: string;
  size: number;
  lastModified: Date;
}

/**
 * Where uploaded files live: a folder in development, S3 in production. Bodies are always
 * streams so a 100 MiB STL never sits in memory. Keys are "a/b/c.stl"-style relative paths,
 * checked by `assertValidKey` (InvalidKeyError otherwise).
 */
export interface FileStorage {
  readonly kind: "folder" | "s3";
  /** Stores the whole body or nothing: readers never see a partly written object. */
  put(bucket: BucketName, key: string, body: Readable, options?: PutOptions): Promise<{ size: number }>;
  /** null when the key does not exist. */
  get(bucket: BucketName, key: string): Promise<StoredObject | null>;
  /** null when the key does not exist. */
  head(bucket: BucketName, key: string): Promise<ObjectInfo | null>;
  /**
   * Copies an object inside the bucket, made by the storage itself (S3 CopyObject; a file copy in a
   * folder), so the bytes never pass through the app. The target is whole or absent, as with `put`;
   * an existing target is replaced. null when the source does not exist.
   */
  copy(bucket: BucketName, fromKey: string, toKey: string): Promise<{ size: number } | null>;
  /**
   * Takes the keys out of the bucket (missing keys are ignored) into the graveyard, where they stay
   * DELETED_OBJECTS_KEPT_HOURS for a backup under way (graveyard.ts). `unrecorded`: objects no row
   * ever named (a refused or broken upload) go at once — no backup can point at them.
   */
  delete(bucket: BucketName, keys: string[], options?: { unrecorded?: boolean }): Promise<void>;
  /** The most recently deleted object of `key` still in the graveyard; null when there is none. */
  getDeleted(bucket: BucketName, key: string): Promise<StoredObject | null>;
  /**
   * Removes for good what was deleted before `before`: at most `limit` hours of the graveyard a call
   * (whole hours, oldest first). Returns how many hours went.
   */
  purgeDeleted(bucket: BucketName, before: Date, limit: number): Promise<number>;
  /** Every object whose key starts with `prefix` (all pages), sorted by key. */
  list(bucket: BucketName, prefix?: string): Promise<ListedObject[]>;
  /**
   * One page of the bucket's objects in key order, those after `startAfter` (S3's StartAfter): one
   * list call, at most `limit` (≤ 1000) objects; `last` is the cursor of the next page, null at the end.
   */
  listAfter(bucket: BucketName, startAfter: string | null, limit: number): Promise<{ objects: ListedObject[]; last: string | null }>;
  /** Creates the buckets (folders) that do not exist yet; safe to call on every start. */
  ensureBuckets(): Promise<void>;
}
