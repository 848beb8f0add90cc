import { sql } from "kysely";
import type { DB } from "~/modules/db/db.server";
import { getConfig } from "~/modules/config/config.server";
import { ABANDONED_DRAFT_DAYS, type RetentionPeriods } from "~/modules/config/retention";
import { processQueue, type QueueDeps, type QueueSettings } from "~/modules/ftp/transfer.server";
import type { FileStorage } from "~/modules/storage/storage.server";
import { purgeUntouchedDrafts } from "~/modules/orders/drafts.server";
import { sendStatusMails } from "~/modules/notifications/status-mail.server";
import { purgeExpiredUploads } from "~/modules/uploads/tus.server";
import { walkStorage } from "~/modules/backoffice/storage-walk.server";
import { BUCKET_NAMES } from "~/modules/storage/storage.server";
import { DELETED_OBJECTS_KEPT_HOURS } from "~/modules/storage/graveyard";
import { logger } from "~/modules/log/logger.server";
import { continueErasures } from "./erasure.server";
import { housekeepingLeaseHolder, runHousekeepingPass } from "./housekeeping-lease.server";
import { deleteAccountingRecords } from "~/modules/orders/retention.server";
import { anonymiseOrders, cutoffOf, deleteBounded, purgeAbandonedDrafts as purgeDrafts, purgeDeliveredModels, yearEndCutoffOf } from "./retention.server";

/**
 * The scheduled job (DESIGN §4.8, §4.16–4.17): one run sends due files of the production file
 * server queue for a bounded time, does a bounded amount of housekeeping and reports what it did.
 * The cron route runs it whole; `npm run queue:work` and the in-process worker run the same two
 * parts on their own rhythm (scheduler.server.ts). Housekeeping runs once an interval for the whole
 * deployment, by whichever process takes its lease (housekeeping-lease.server.ts, ADR 084).
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
  /** Orders deleted or anonymised by approved erasure requests (ADR 079). */
  erasureOrders: number;
  paymentEventsPurged: number;
  /** Anonymised orders deleted with their payments after the accounting records' period. */
  accountingOrdersDeleted: number;
  /** Payments whose order was deleted earlier, after the same period. */
  paymentsWithoutOrderDeleted: number;
  /** Partners' payouts deleted after the accounting records' period. */
  partnerPayoutsDeleted: number;
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
  /** Hours of deleted files purged for good after the grace period (storage/graveyard.ts). */
  graveyardHoursPurged: number;
  ms: number;
}

/**
 * How much housekeeping one run does: at most `batch` rows per statement, and at most `filesBatch`
 * orders per file-removing pass. The passes share `budgetMs`: each is given its share of it from
 * when it starts (not from the run's start, so a slow pass before it takes none of its time), and
 * starts no new group of orders once its share is spent; its first group always goes, the abandoned
 * drafts' first DRAFTS_AT_LEAST_A_RUN (ADR 074, ADR 092; bench/RESULTS.md "Retention in bounded
 * passes", "The job's run by its steps").
 */
export interface HousekeepingLimits {
  batch: number;
  filesBatch: number;
  budgetMs: number;
}
export const HOUSEKEEPING_LIMITS: HousekeepingLimits = { batch: 500, filesBatch: 100, budgetMs: 200 };
/** The file-removing passes that share the budget: abandoned drafts, models, orders' personal data, erasure requests. */
const FILE_PASSES = 4;
/**
 * Abandoned drafts a run removes whatever its time (while there are any): a backlog of 15,000 goes
 * within a day of runs a minute apart (1,440 runs need 11 a run) even on a machine so busy that a
 * group of ten takes all of the pass's share. A model's pass needs four a run for 4,600: its first group.
 */
const DRAFTS_AT_LEAST_A_RUN = 20;

/** Kept for callers that purge drafts alone (tests): the configured period, a batch and a budget. */
export interface DraftPurgeLimits {
  batch: number;
  budgetMs: number;
}
export const DRAFT_PURGE_LIMITS: DraftPurgeLimits = { batch: 500, budgetMs: 500 };
/**
 * Anonymised orders one run deletes after the accounting records' period: each drags its patients,
 * history, codes and payments (as an untouched draft does, 100 a run), so a backlog — the first run
 * after a period was lowered — drains over runs that each stay short.
 */
const ACCOUNTING_ORDERS_PER_RUN = 100;
/** Hours of the storage's graveyard one run purges per bucket: a backlog (a job that was off) drains over several runs. */
const GRAVEYARD_HOURS_PER_RUN = 4;

export async function purgeAbandonedDrafts(db: DB, storage: FileStorage, limits: DraftPurgeLimits = DRAFT_PURGE_LIMITS, periods: RetentionPeriods = getConfig().retention) {
  return purgeDrafts(db, storage, periods, { batch: limits.batch, deadline: Date.now() + limits.budgetMs });
}

export interface HousekeepingOptions {
  retention?: RetentionPeriods;
  limits?: HousekeepingLimits;
  /** Hears how long each step took (the benchmark; a slow step's name in a log). */
  onStep?: (step: string, ms: number) => void;
  /** Fires when the pass lost its lease (ADR 084): no further step starts. */
  signal?: AbortSignal;
}

/** Retention (drafts, models, orders' personal data, payment events, accounting records, payouts), order codes, rate limits, resent answers, sessions, sign-in tokens, status mails. */
export async function runHousekeeping(db: DB, storage: FileStorage, options: HousekeepingOptions = {}): Promise<HousekeepingSummary> {
  const started = Date.now();
  const periods = options.retention ?? getConfig().retention;
  const limits = options.limits ?? HOUSEKEEPING_LIMITS;
  let stepStarted = started;
  const step = async <T,>(name: string, run: () => Promise<T>): Promise<T> => {
    options.signal?.throwIfAborted();
    const result = await run();
    const now = Date.now();
    options.onStep?.(name, now - stepStarted);
    stepStarted = now;
    return result;
  };
  // The file-removing passes share the run's budget, each its share from when it starts, so a long
  // backlog of one (or a slow statement before it) never starves the others; each pass's first group
  // always goes (ADR 092).
  const share = () => ({ batch: limits.filesBatch, deadline: Date.now() + limits.budgetMs / FILE_PASSES });
  const drafts = await step("abandoned drafts", () => purgeDrafts(db, storage, periods, { ...share(), atLeast: DRAFTS_AT_LEAST_A_RUN }));
  // Drafts nobody typed into give their codes back after a day (ADR 038).
  await step("untouched drafts", () => purgeUntouchedDrafts(db));
  const models = await step("models", () => purgeDeliveredModels(db, storage, periods, share()));
  const anonymised = await step("orders' personal data", () => anonymiseOrders(db, storage, periods, share()));
  // Approved erasure requests go on where their last pass stopped (ADR 079); their first group always goes.
  const erasures = await step("erasure requests", () => continueErasures(db, storage, periods, share()));
  const bounded = (table: Parameters<typeof deleteBounded>[1], where: ReturnType<typeof sql<boolean>>) => step(table, () => deleteBounded(db, table, where, limits.batch));
  const paymentEventsPurged = await bounded("payment_events", sql<boolean>`received_at < ${cutoffOf("orderPersonalData", periods)}`);
  // The accounting record outlives the personal data: its own period, from the end of the year (ADR 074).
  const accountingCutoff = yearEndCutoffOf("accountingRecords", periods);
  const accountingOrders = await step("accounting records", () => deleteAccountingRecords(db, accountingCutoff, Math.min(limits.batch, ACCOUNTING_ORDERS_PER_RUN)));
  const orphanPayments = await bounded("payments", sql<boolean>`order_id is null and updated_at < ${accountingCutoff}`);
  const partnerPayoutsDeleted = await bounded("partner_payouts", sql<boolean>`paid_at < ${accountingCutoff}`);
  const orderCodesReleased = await bounded("order_codes", sql<boolean>`release_after < now()`);
  const rateLimitsPurged = await bounded("rate_limits", sql<boolean>`expires_at < now()`);
  // Answers kept for resent posts (ADR 046).
  const requestReplaysPurged = await bounded("request_replays", sql<boolean>`created_at < ${cutoffOf("resentAnswers", periods)}`);
  const sessionsExpired = await bounded("sessions", sql<boolean>`expires_at < now()`);
  const signInTokensPurged = await bounded("sign_in_tokens", sql<boolean>`expires_at < ${cutoffOf("signInLinks", periods)}`);
  const mails = await step("status mails", () => sendStatusMails(db));
  await step("partial uploads", () => purgeExpiredUploads()); // partial resumable uploads older than a day (issue 4)
  // A few list calls of the bucket a run; a failing storage waits for the next run, the rest goes on.
  const walk = await step("storage walk", () =>
    walkStorage(db, storage).catch((error: unknown) => {
      logger.error("housekeeping: walking the storage failed:", error);
      return { objects: 0, trashFound: 0 };
    }),
  );
  // Deleted files leave the graveyard once no backup can still need them (ADR 077): a few hours a run.
  const graveyardHoursPurged = await step("graveyard", async () => {
    let hours = 0;
    for (const bucket of BUCKET_NAMES) {
      hours += await storage.purgeDeleted(bucket, new Date(Date.now() - DELETED_OBJECTS_KEPT_HOURS * 3_600_000), GRAVEYARD_HOURS_PER_RUN).catch((error: unknown) => {
        logger.error("housekeeping: purging deleted files failed:", error);
        return 0;
      });
    }
    return hours;
  });
  return {
    abandonedDraftsDeleted: drafts.deleted,
    storageFilesDeleted: drafts.files + models.files + anonymised.files + erasures.files,
    modelFoldersRemoved: models.orders,
    ordersAnonymised: anonymised.orders,
    erasureOrders: erasures.orders,
    paymentEventsPurged,
    accountingOrdersDeleted: accountingOrders,
    paymentsWithoutOrderDeleted: orphanPayments,
    partnerPayoutsDeleted,
    orderCodesReleased,
    rateLimitsPurged,
    requestReplaysPurged,
    sessionsExpired,
    signInTokensPurged,
    statusMailsSent: mails.sent,
    statusMailsFailed: mails.failed,
    storageObjectsWalked: walk.objects,
    storageTrashFound: walk.trashFound,
    graveyardHoursPurged,
    ms: Date.now() - started,
  };
}

/** The queue part of a run of the whole job (the cron route's summary). */
interface QueuePartSummary {
  /** Queue entries claimed, delivered, failed and released (shutdown) in this run. */
  claimed: number;
  completed: number;
  failed: number;
  released: number;
  /** Queue entries still to deliver after the run. */
  remaining: number;
  /** The whole run's time. */
  ms: number;
}

/**
 * The housekeeping part: what the pass did, or that it did not run because another process's pass
 * was under way (ADR 084); `housekeepingBy` names the process that ran it, or runs it.
 */
type HousekeepingPartSummary = ({ housekeeping: "ran" } & HousekeepingSummary) | { housekeeping: "skipped" };

export type JobSummary = QueuePartSummary & HousekeepingPartSummary & { housekeepingBy: string | null };

export interface ScheduledJobOptions {
  /** How long the queue part may claim new entries. */
  budgetMs: number;
  /** How long files in flight may run past the budget before they are released. */
  graceMs: number;
  /** Who runs it, in the housekeeping lease and the log ("cron:host:pid:…"). */
  holder: string;
  /** The lease of its housekeeping pass lasts this long unless renewed (the configured interval). */
  housekeepingIntervalMs: number;
}

/**
 * The whole job once: the queue for a bounded time, then a housekeeping pass unless another process
 * is running one (the same lease as the schedulers, taken whatever the interval: the caller chose
 * when; ADR 084). One part failing does not skip the other.
 */
export async function runScheduledJobs(deps: QueueDeps, settings: QueueSettings, options: ScheduledJobOptions): Promise<JobSummary> {
  const started = Date.now();
  const errors: unknown[] = [];
  const queue = await processQueue(deps, settings, { budgetMs: options.budgetMs, graceMs: options.graceMs }).catch((error) => {
    errors.push(error);
    return null;
  });
  const pass = await runHousekeepingPass(deps.db, {
    holder: options.holder,
    due: "now",
    intervalMs: options.housekeepingIntervalMs,
    log: deps.log,
    run: (signal) => runHousekeeping(deps.db, deps.storage, { signal }),
  }).catch((error) => {
    errors.push(error);
    return null;
  });
  if (!queue || !pass) throw errors[0];
  const queuePart: QueuePartSummary = {
    claimed: queue.claimed,
    completed: queue.completed,
    failed: queue.failed,
    released: queue.released,
    remaining: queue.remaining,
    ms: Date.now() - started,
  };
  if (!pass.ran) return { ...queuePart, housekeeping: "skipped", housekeepingBy: await housekeepingLeaseHolder(deps.db) };
  return { ...pass.summary, ...queuePart, housekeeping: "ran", housekeepingBy: options.holder };
}
