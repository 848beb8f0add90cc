/**
 * What a backup archive holds (ADR 077). The archive is a tar: the database first
 * (`database/postgres.dump`, pg_dump's custom format, or `database/pglite.tar`, PGlite's data
 * directory), then `files/<bucket>/<key>` for every stored file the dumped rows name and every logo,
 * then this manifest, written last because it carries the checksums taken while the files went in.
 */
import type { BucketName } from "~/modules/storage/storage.server";

export const MANIFEST_NAME = "manifest.json";
export const FILES_DIR = "files/";

export interface ArchivedFile {
  bucket: BucketName;
  key: string;
  size: number;
  sha256: string;
  /** Read from the storage's graveyard: the service deleted it after the database was read. */
  fromGraveyard?: boolean;
}

export interface BackupManifest {
  format: 1;
  createdAt: string;
  database: { kind: "postgres" | "pglite"; entry: string; size: number; sha256: string };
  /** Rows of the main tables in the dumped database, to compare a restore against. */
  rows: Record<string, number>;
  files: ArchivedFile[];
  /** Keys the rows name that neither the bucket nor its graveyard held when the backup ran. */
  missing: { bucket: BucketName; key: string }[];
  ms: number;
}

/** The tables whose rows a manifest counts. */
export const COUNTED_TABLES = ["orders", "orders_patients", "order_status_history", "payments", "users", "client_settings", "partner_codes"] as const;

export function archiveEntryOf(bucket: BucketName, key: string): string {
  return `${FILES_DIR}${bucket}/${key}`;
}

/** The bucket and key of a `files/…` entry; null for anything else. */
export function fileOfEntry(name: string): { bucket: BucketName; key: string } | null {
  if (!name.startsWith(FILES_DIR)) return null;
  const rest = name.slice(FILES_DIR.length);
  const slash = rest.indexOf("/");
  const bucket = rest.slice(0, slash);
  if (slash < 1 || (bucket !== "orders" && bucket !== "logos")) return null;
  return { bucket, key: rest.slice(slash + 1) };
}
