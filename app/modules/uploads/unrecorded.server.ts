import { FILE_TYPES } from "~db/schema";
import type { DB } from "~/modules/db/db.server";
import { isDatabaseUnavailable } from "~/modules/db/unavailable";
import type { FileStorage } from "~/modules/storage/storage.server";
import { storedFilesOf } from "~/modules/orders/files.server";
import { listPatients } from "~/modules/orders/patients.server";
import { logger } from "~/modules/log/logger.server";

/**
 * What to do with stored objects whose recording in the database failed.
 *
 * Usually the transaction rolled back, and the objects are deleted at once. But when the database
 * went away mid-transaction, the COMMIT may have been carried out with its answer lost: deleting then
 * would leave a recorded file without its object, and keeping them all would leave objects no file
 * points at. So those objects are kept, and settled once the database answers again: the ones the
 * order records stay, the others are deleted.
 */
export async function discardUnrecorded(db: DB, storage: FileStorage, orderId: string, keys: string[], error: unknown): Promise<void> {
  if (keys.length === 0) return;
  if (!isDatabaseUnavailable(error)) {
    await storage.delete("orders", keys, { unrecorded: true }).catch((cause: unknown) => logger.error("could not delete unrecorded uploads:", keys, cause));
    return;
  }
  void settleWhenAnswered({
    keys,
    recorded: async () => {
      const patients = await listPatients(db, orderId);
      return new Set(patients.flatMap((patient) => FILE_TYPES.flatMap((type) => storedFilesOf(patient, type).flatMap((file) => [file.storagePath, ...(file.source ? [file.source.storagePath] : [])]))));
    },
    remove: (unrecorded) => storage.delete("orders", unrecorded, { unrecorded: true }),
  });
}

export interface SettleOptions {
  keys: string[];
  /** The keys the database records; throws while it cannot be asked. */
  recorded: () => Promise<Set<string>>;
  remove: (keys: string[]) => Promise<void>;
  intervalMs?: number;
  /** After this long without an answer the objects are left as they are (and logged). */
  giveUpAfterMs?: number;
}

/** Asks `recorded` every `intervalMs` until it answers, then removes the keys it does not record. */
export async function settleWhenAnswered({ keys, recorded, remove, intervalMs = 2_000, giveUpAfterMs = 15 * 60_000 }: SettleOptions): Promise<"kept" | "removed" | "gave up"> {
  const deadline = Date.now() + giveUpAfterMs;
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, intervalMs).unref());
    let known: Set<string>;
    try {
      known = await recorded();
    } catch (error) {
      if (Date.now() < deadline) continue;
      logger.error("uploads left unsettled (the database did not answer):", keys, error);
      return "gave up";
    }
    const unrecorded = keys.filter((key) => !known.has(key));
    if (unrecorded.length === 0) return "kept";
    try {
      await remove(unrecorded);
    } catch (error) {
      logger.error("could not delete unrecorded uploads:", unrecorded, error);
    }
    return "removed";
  }
}
