import { sql } from "kysely";
import { ABANDONED_DRAFT_DAYS } from "./abandoned-drafts";
import type { DB } from "~/modules/db/db.server";
import { getConfig } from "~/modules/config/config.server";
import type { RetentionPeriods } from "~/modules/config/retention";
import { processQueue, type QueueDeps, type QueueSettings } from "~/modules/ftp/transfer.server";
import type { FileStorage } from "~/modules/storage/storage.server";
import { purgeUntouchedDrafts } from "~/modules/orders/drafts.server";
import { sendStatusMails } from "~/modules/notifications/status-mail.server";
import { purgeExpiredUploads } from "~/modules/uploads/tus.server";
import { walkStorage } from "~/modules/backoffice/storage-walk.server";
import { logger } from "~/modules/log/logger.server";
import { anonymiseOrders, cutoffOf, deleteBounded, purgeAbandonedDrafts as purgeDrafts, purgeDeliveredModels } from "./retention.server";

/**
 * The scheduled job (DESIGN §4.8, §4.16–4.17): one run sends due files of the production file
 * server queue for a bounded time, does a bounded amount of housekeeping and reports what it did.
 * The cron route runs it whole; `npm run queue:work` and the in-process worker run the same two
 * parts on their own rhythm (scheduler.server.ts).
 *
 * Housekeeping enforces the retention periods of the privacy notices (ADR 074): every delete and
 * every anonymisation is one set-based pass over a bounded batch, so a run costs the same after
 * five years as after five days, and a backlog drains over several runs.
 */
export { ABANDONED_DRAFT_DAYS };

export interface HousekeepingSummary {
  abandonedDraftsDeleted: number;
  storageFilesDeleted: number;
  /** Shipped, completed or cancelled orders whose models went after their period. */
  modelFoldersRemoved: number;
  /** Orders whose personal data was removed after their period; payment events of that age deleted. */
  ordersAnonymised: number;
  paymentEventsPurged: number;
  orderCodesReleased: number;
  rateLimitsPurged: number;
  requestReplaysPurged: number;
  sessionsExpired: number;
  signInTokensPurged: number;
  statusMailsSent: number;
  statusMailsFailed: number;
  /** Objects of the bucket the background walk listed in this run, and the trash among them (ADR 063). */
  storageObjectsWalked: number;
  storageTrashFound: number;
  ms: number;
}

/**
 * How much housekeeping one run does: at most `batch` rows per statement, and at most `filesBatch`
 * orders per file-removing pass, whose storage calls start no new group of ten orders once
 * `budgetMs` since the run's start has passed (ADR 074; bench/RESULTS.md "Retention in bounded passes").
 */
export interface HousekeepingLimits {
  batch: number;
  filesBatch: number;
  budgetMs: number;
}
export const HOUSEKEEPING_LIMITS: HousekeepingLimits = { batch: 1000, filesBatch: 200, budgetMs: 400 };

/** Kept for callers that purge drafts alone (tests): the configured period, a batch and a budget. */
export interface DraftPurgeLimits {
  batch: number;
  budgetMs: number;
}
export const DRAFT_PURGE_LIMITS: DraftPurgeLimits = { batch: 500, budgetMs: 500 };

export async function purgeAbandonedDrafts(db: DB, storage: FileStorage, limits: DraftPurgeLimits = DRAFT_PURGE_LIMITS, periods: RetentionPeriods = getConfig().retention) {
  return purgeDrafts(db, storage, periods, { batch: limits.batch, deadline: Date.now() + limits.budgetMs });
}

export interface HousekeepingOptions {
  retention?: RetentionPeriods;
  limits?: HousekeepingLimits;
}

/** Retention (drafts, models, orders' personal data, payment events), order codes, rate limits, resent answers, sessions, sign-in tokens, status mails. */
export async function runHousekeeping(db: DB, storage: FileStorage, options: HousekeepingOptions = {}): Promise<HousekeepingSummary> {
  const started = Date.now();
  const periods = options.retention ?? getConfig().retention;
  const limits = options.limits ?? HOUSEKEEPING_LIMITS;
  const deadline = started + limits.budgetMs;
  const pass = { batch: limits.filesBatch, deadline };
  const drafts = await purgeDrafts(db, storage, periods, pass);
  await purgeUntouchedDrafts(db); // drafts nobody typed into give their codes back after a day (ADR 038)
  const models = await purgeDeliveredModels(db, storage, periods, pass);
  const anonymised = await anonymiseOrders(db, storage, periods, pass);
  const paymentEventsPurged = await deleteBounded(db, "payment_events", sql<boolean>`received_at < ${cutoffOf("orderPersonalData", periods)}`, limits.batch);
  const orderCodesReleased = await deleteBounded(db, "order_codes", sql<boolean>`release_after < now()`, limits.batch);
  const rateLimitsPurged = await deleteBounded(db, "rate_limits", sql<boolean>`expires_at < now()`, limits.batch);
  // Answers kept for resent posts (ADR 046).
  const requestReplaysPurged = await deleteBounded(db, "request_replays", sql<boolean>`created_at < ${cutoffOf("resentAnswers", periods)}`, limits.batch);
  const sessionsExpired = await deleteBounded(db, "sessions", sql<boolean>`expires_at < now()`, limits.batch);
  const signInTokensPurged = await deleteBounded(db, "sign_in_tokens", sql<boolean>`expires_at < ${cutoffOf("signInLinks", periods)}`, limits.batch);
  const mails = await sendStatusMails(db);
  await purgeExpiredUploads(); // partial resumable uploads older than a day (issue 4)
  // A few list calls of the bucket a run; a failing storage waits for the next run, the rest goes on.
  const walk = await walkStorage(db, storage).catch((error: unknown) => {
    logger.error("housekeeping: walking the storage failed:", error);
    return { objects: 0, trashFound: 0 };
  });
  return {
    abandonedDraftsDeleted: drafts.deleted,
    storageFilesDeleted: drafts.files + models.files + anonymised.files,
    modelFoldersRemoved: models.orders,
    ordersAnonymised: anonymised.orders,
    paymentEventsPurged,
    orderCodesReleased,
    rateLimitsPurged,
    requestReplaysPurged,
    sessionsExpired,
    signInTokensPurged,
    statusMailsSent: mails.sent,
    statusMailsFailed: mails.failed,
    storageObjectsWalked: walk.objects,
    storageTrashFound: walk.trashFound,
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
