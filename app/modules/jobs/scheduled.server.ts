import { sql } from "kysely";
import { ABANDONED_DRAFT_DAYS } from "./abandoned-drafts";
import type { DB } from "~/modules/db/db.server";
import { processQueue, type QueueDeps, type QueueSettings } from "~/modules/ftp/transfer.server";
import type { FileStorage } from "~/modules/storage/storage.server";
import { releaseExpiredOrderCodes } from "~/modules/orders/orders.server";
import { purgeUntouchedDrafts } from "~/modules/orders/drafts.server";
import { purgeRequestReplays } from "~/modules/http/resend.server";
import { purgeExpiredRateLimits } from "~/modules/security/rate-limit.server";
import { sendStatusMails } from "~/modules/notifications/status-mail.server";
import { purgeExpiredUploads } from "~/modules/uploads/tus.server";
import { walkStorage } from "~/modules/backoffice/storage-walk.server";
import { BUCKET_NAMES } from "~/modules/storage/storage.server";
import { DELETED_OBJECTS_KEPT_HOURS } from "~/modules/storage/graveyard";
import { logger } from "~/modules/log/logger.server";

/**
 * The scheduled job (DESIGN §4.8, §4.16–4.17): one run sends due files of the production file
 * server queue for a bounded time, does a bounded amount of housekeeping and reports what it did.
 * The cron route runs it whole; `npm run queue:work` and the in-process worker run the same two
 * parts on their own rhythm (scheduler.server.ts).
 */
export { ABANDONED_DRAFT_DAYS };

export interface HousekeepingSummary {
  abandonedDraftsDeleted: number;
  storageFilesDeleted: number;
  orderCodesReleased: number;
  rateLimitsPurged: number;
  sessionsExpired: number;
  signInTokensPurged: number;
  statusMailsSent: number;
  /** Objects of the bucket the background walk listed in this run, and the trash among them (ADR 063). */
  storageObjectsWalked: number;
  storageTrashFound: number;
  /** Hours of deleted files purged for good after the grace period (storage/graveyard.ts). */
  graveyardHoursPurged: number;
  ms: number;
}

/**
 * How much of the abandoned drafts one run removes: at most `batch` drafts, and no new ones once
 * `budgetMs` has passed, so a backlog (a lab's first run after months, a job that was off) drains
 * over several runs and no run holds the job for long. With the indexes behind every foreign key
 * (ADR 041) a draft's rows go in about a millisecond; its files cost a storage listing each.
 */
export interface DraftPurgeLimits {
  batch: number;
  budgetMs: number;
}
export const DRAFT_PURGE_LIMITS: DraftPurgeLimits = { batch: 500, budgetMs: 500 };
/** Drafts whose files are listed at once and whose rows go in one statement. */
const DRAFTS_AT_ONCE = 10;
/** Hours of the storage's graveyard one run purges per bucket: a backlog (a job that was off) drains over several runs. */
const GRAVEYARD_HOURS_PER_RUN = 4;

export async function purgeAbandonedDrafts(db: DB, storage: FileStorage, limits: DraftPurgeLimits = DRAFT_PURGE_LIMITS) {
  const started = Date.now();
  const drafts = await db
    .selectFrom("orders")
    .select("id")
    .where("status", "=", "draft")
    .where("updated_at", "<", sql<Date>`now() - make_interval(days => ${ABANDONED_DRAFT_DAYS})`)
    .orderBy("updated_at")
    .limit(limits.batch)
    .execute();
  let files = 0;
  let deleted = 0;
  // The first batch always goes, so a slow moment (a busy database, a long first query) never leaves a
  // run that removes nothing; later batches only while the budget lasts.
  for (let at = 0; at < drafts.length && (at === 0 || Date.now() - started < limits.budgetMs); at += DRAFTS_AT_ONCE) {
    const ids = drafts.slice(at, at + DRAFTS_AT_ONCE).map((draft) => draft.id);
    // Files first: a draft whose files could not be removed stays for the next run.
    const removed = await Promise.all(
      ids.map(async (id) => {
        const keys = (await storage.list("orders", `order_${id}/`)).map((object) => object.key);
        if (keys.length) await storage.delete("orders", keys);
        return keys.length;
      }),
    );
    files += removed.reduce((sum, count) => sum + count, 0);
    const result = await db.deleteFrom("orders").where("id", "in", ids).where("status", "=", "draft").executeTakeFirst();
    deleted += Number(result.numDeletedRows);
  }
  return { deleted, files };
}

/** Drafts, order codes, rate limits, sessions, sign-in tokens. */
export async function runHousekeeping(db: DB, storage: FileStorage): Promise<HousekeepingSummary> {
  const started = Date.now();
  const drafts = await purgeAbandonedDrafts(db, storage);
  await purgeUntouchedDrafts(db); // drafts nobody typed into give their codes back after a day (ADR 038)
  const orderCodesReleased = await releaseExpiredOrderCodes(db);
  const rateLimitsPurged = await purgeExpiredRateLimits(db);
  await purgeRequestReplays(db); // answers kept for resent posts (ADR 046)
  const sessions = await db.deleteFrom("sessions").where("expires_at", "<", sql<Date>`now()`).executeTakeFirst();
  const tokens = await db.deleteFrom("sign_in_tokens").where("expires_at", "<", sql<Date>`now() - interval '1 day'`).executeTakeFirst();
  const mails = await sendStatusMails(db);
  await purgeExpiredUploads(); // partial resumable uploads older than a day (issue 4)
  // A few list calls of the bucket a run; a failing storage waits for the next run, the rest goes on.
  const walk = await walkStorage(db, storage).catch((error: unknown) => {
    logger.error("housekeeping: walking the storage failed:", error);
    return { objects: 0, trashFound: 0 };
  });
  // Deleted files leave the graveyard once no backup can still need them (ADR 077): a few hours a run.
  let graveyardHoursPurged = 0;
  for (const bucket of BUCKET_NAMES) {
    graveyardHoursPurged += await storage.purgeDeleted(bucket, new Date(Date.now() - DELETED_OBJECTS_KEPT_HOURS * 3_600_000), GRAVEYARD_HOURS_PER_RUN).catch((error: unknown) => {
      logger.error("housekeeping: purging deleted files failed:", error);
      return 0;
    });
  }
  return {
    abandonedDraftsDeleted: drafts.deleted,
    storageFilesDeleted: drafts.files,
    orderCodesReleased,
    rateLimitsPurged,
    sessionsExpired: Number(sessions.numDeletedRows),
    signInTokensPurged: Number(tokens.numDeletedRows),
    statusMailsSent: mails.sent,
    storageObjectsWalked: walk.objects,
    storageTrashFound: walk.trashFound,
    graveyardHoursPurged,
    ms: Date.now() - started,
  };
}

export interface JobSummary extends HousekeepingSummary {
  /** Queue entries claimed, delivered, failed and released (shutdown) in this run. */
  claimed: number;
  completed: number;
  failed: number;
  released: number;
  /** Queue entries still to deliver after the run. */
  remaining: number;
}

export interface ScheduledJobOptions {
  /** How long the queue part may claim new entries. */
  budgetMs: number;
  /** How long files in flight may run past the budget before they are released. */
  graceMs: number;
}

/** The whole job once: the queue for a bounded time, then housekeeping. One part failing does not skip the other. */
export async function runScheduledJobs(deps: QueueDeps, settings: QueueSettings, options: ScheduledJobOptions): Promise<JobSummary> {
  const started = Date.now();
  const errors: unknown[] = [];
  const queue = await processQueue(deps, settings, { budgetMs: options.budgetMs, graceMs: options.graceMs }).catch((error) => {
    errors.push(error);
    return null;
  });
  const housekeeping = await runHousekeeping(deps.db, deps.storage).catch((error) => {
    errors.push(error);
    return null;
  });
  if (!queue || !housekeeping) throw errors[0];
  return {
    ...housekeeping,
    claimed: queue.claimed,
    completed: queue.completed,
    failed: queue.failed,
    released: queue.released,
    remaining: queue.remaining,
    ms: Date.now() - started,
  };
}
