import { type AppConfig, getConfig } from "~/modules/config/config.server";
import { createFolderStorage } from "./folder-storage.server";
import { createS3Storage } from "./s3-storage.server";
import type { FileStorage } from "./types";

export type { BucketName, FileStorage, ListedObject, StoredObject } from "./types";
export { BUCKET_NAMES } from "./types";

export { InvalidKeyError } from "./keys";

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
