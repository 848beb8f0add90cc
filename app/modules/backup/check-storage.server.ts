import { createHash } from "node:crypto";
import type { DB } from "~/modules/db/db.server";
import { sql } from "kysely";
import type { FileStorage } from "~/modules/storage/storage.server";
import type { BackupManifest } from "./manifest";
import { filesNamedByRows } from "~/modules/orders/stored-files.server";

/**
 * `npm run check:storage` (ADR 077): do the database and the storage agree? Rows naming files the
 * bucket lacks, objects no row names, sizes that differ from the row's, and — given a backup's
 * manifest — objects whose bytes differ from the archived ones. The bucket is read page by page in
 * key order and merged with the rows' keys, sorted the same way.
 */

const SHOWN = 1000;
const CHECKS_AT_ONCE = 16;

export interface StorageReport {
  rowsWithoutObjects: string[];
  objectsWithoutRows: string[];
  sizeMismatches: { key: string; row: number; object: number }[];
  checksumMismatches: string[];
  counts: { rows: number; objects: number; rowsWithoutObjects: number; objectsWithoutRows: number; sizeMismatches: number; checksumMismatches: number };
}

export function storageProblems(report: StorageReport): number {
  const { counts } = report;
  return counts.rowsWithoutObjects + counts.objectsWithoutRows + counts.sizeMismatches + counts.checksumMismatches;
}

function byteOrder(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
}

export async function checkStorage(db: DB, storage: FileStorage, options: { manifest?: BackupManifest } = {}): Promise<StorageReport> {
  const named = (await filesNamedByRows(async <Row>(text: string) => (await sql.raw<Row>(text).execute(db)).rows)).sort((a, b) => byteOrder(a.key, b.key));
  const report: StorageReport = {
    rowsWithoutObjects: [],
    objectsWithoutRows: [],
    sizeMismatches: [],
    checksumMismatches: [],
    counts: { rows: named.length, objects: 0, rowsWithoutObjects: 0, objectsWithoutRows: 0, sizeMismatches: 0, checksumMismatches: 0 },
  };
  const note = <T>(list: T[], counter: keyof StorageReport["counts"], item: T) => {
    report.counts[counter]++;
    if (list.length < SHOWN) list.push(item);
  };

  let at = 0;
  let cursor: string | null = null;
  do {
    const page: Awaited<ReturnType<FileStorage["listAfter"]>> = await storage.listAfter("orders", cursor, 1000);
    for (const object of page.objects) {
      report.counts.objects++;
      while (at < named.length && byteOrder(named[at]!.key, object.key) < 0) note(report.rowsWithoutObjects, "rowsWithoutObjects", named[at++]!.key);
      if (at < named.length && named[at]!.key === object.key) {
        const row = named[at++]!;
        if (row.size !== object.size) note(report.sizeMismatches, "sizeMismatches", { key: object.key, row: row.size, object: object.size });
      } else {
        note(report.objectsWithoutRows, "objectsWithoutRows", object.key);
      }
    }
    cursor = page.last;
  } while (cursor !== null);
  while (at < named.length) note(report.rowsWithoutObjects, "rowsWithoutObjects", named[at++]!.key);

  // Each file is a round trip to the disk or the bucket: several are read at once (ADR 077).
  const archived = options.manifest?.files ?? [];
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(CHECKS_AT_ONCE, archived.length) }, async () => {
      while (next < archived.length) {
        const file = archived[next++]!;
        const object = await storage.get(file.bucket, file.key);
        if (!object) continue; // a row without object, or a logo removed since: reported above or not named
        const hash = createHash("sha256");
        for await (const chunk of object.body) hash.update(chunk as Buffer);
        if (hash.digest("hex") !== file.sha256) note(report.checksumMismatches, "checksumMismatches", `${file.bucket}/${file.key}`);
      }
    }),
  );
  report.checksumMismatches.sort(byteOrder);
  return report;
}
