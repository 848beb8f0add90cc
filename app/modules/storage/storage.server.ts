import type { Readable } from "node:stream";
import { type AppConfig, getConfig } from "~/modules/config/config.server";
import { createFolderStorage } from "./folder-storage.server";
import { createS3Storage } from "./s3-storage.server";

export { InvalidKeyError } from "./keys";

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
  /** Missing keys are ignored. */
  delete(bucket: BucketName, keys: string[]): Promise<void>;
  /** Every object whose key starts with `prefix` (all pages), sorted by key. */
  list(bucket: BucketName, prefix?: string): Promise<ListedObject[]>;
  /** Creates the buckets (folders) that do not exist yet; safe to call on every start. */
  ensureBuckets(): Promise<void>;
}

export function createStorage(config: Pick<AppConfig, "storage" | "buckets">): FileStorage {
  const storage = config.storage;
  switch (storage.kind) {
    case "folder":
      return createFolderStorage(storage, config.buckets);
    case "s3":
      return createS3Storage(storage, config.buckets);
  }
}

let shared: FileStorage | undefined;

/** The process-wide storage of the configured kind (one S3 client per process). */
export function getStorage(): FileStorage {
  shared ??= createStorage(getConfig());
  return shared;
}
