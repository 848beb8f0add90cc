import { randomBytes } from "node:crypto";
import os from "node:os";
import type { DB } from "~/modules/db/db.server";
import type { FileStorage } from "~/modules/storage/storage.server";
import type { FileServerSession, ProductionFileServer } from "./types";
import { DEFAULT_RETRY_BASE_MS, DEFAULT_RETRY_MAX_MS, retryDelayMs } from "./queue";
import { type ClaimedEntry, claimDueEntries, countRemaining } from "~/modules/orders/production-queue.server";
import { claimEntryForStaff, completeEntry, failEntry, failInterruptedExhausted, releaseEntry, renewLeases } from "./queue.server";
import { messageOf, StorageReadError, TransferStopped, transferEntry } from "./transfer-entry.server";
import { logger } from "~/modules/log/logger.server";
import { countTransfer } from "~/modules/metrics/count.server";

/**
 * The queue engine (DESIGN §4.16): streams claimed entries from storage to the production file
 * server. One connection per batch, `concurrency` files in flight on it, a lease renewed while
 * they transfer; each file is written under a temporary name and renamed when complete (the file
 * server sessions do that; one file's transfer is in transfer-entry.server.ts). The cron route,
 * `npm run queue:work`, the in-process worker of the embedded setup (queue-worker.server.ts) and
 * staff's "send now" all run this code.
 */

export interface QueueDeps {
  db: DB;
  storage: FileStorage;
  fileServer: ProductionFileServer;
  /** One line per transfer and per problem; the logger by default. */
  log?: (line: string) => void;
}

export interface QueueSettings {
  leaseSeconds: number;
  maxAttempts: number;
  /** Files in flight on the one connection of a batch. */
  concurrency: number;
  retryBaseMs?: number;
  retryMaxMs?: number;
}

export interface RunOptions {
  workerId?: string;
  /** No new entry is claimed after this long (the batch then ends once its files are done). */
  budgetMs?: number;
  /** Files still in flight this long after the budget (or the signal) are aborted and released. */
  graceMs?: number;
  /** Stops claiming; files in flight get `graceMs` to finish, then are released. */
  signal?: AbortSignal;
}

export type TransferOutcome = "completed" | "failed" | "released" | "lease_lost";

export interface TransferReport {
  id: string;
  outcome: TransferOutcome;
  bytes: number;
  ms: number;
  error?: string;
}

export interface QueueRunSummary {
  claimed: number;
  completed: number;
  failed: number;
  released: number;
  /** Entries still to deliver after this run (due now or waiting for a retry). */
  remaining: number;
  ms: number;
  transfers: TransferReport[];
}

/** "host:pid:random", recorded in `locked_by`. */
export function newWorkerId(kind = "worker"): string {
  return `${kind}:${os.hostname()}:${process.pid}:${randomBytes(3).toString("hex")}`;
}


function settingsWithDefaults(settings: QueueSettings) {
  return {
    ...settings,
    concurrency: Math.max(1, settings.concurrency),
    retryBaseMs: settings.retryBaseMs ?? DEFAULT_RETRY_BASE_MS,
    retryMaxMs: settings.retryMaxMs ?? DEFAULT_RETRY_MAX_MS,
  };
}

/**
 * Sends `claimed` (already held by `workerId`) and, when `claimMore`, keeps claiming due entries
 * until none is left, the budget is spent or the signal fires. One connection for the whole batch.
 */
async function runBatch(deps: QueueDeps, rawSettings: QueueSettings, workerId: string, claimed: ClaimedEntry[], claimMore: boolean, options: RunOptions) {
  const settings = settingsWithDefaults(rawSettings);
  const { db, storage, fileServer } = deps;
  const log = deps.log ?? logger.info;
  const started = Date.now();
  const budgetMs = options.budgetMs ?? Number.POSITIVE_INFINITY;
  const graceMs = options.graceMs ?? 20_000;
  const reports: TransferReport[] = [];
  const counts = { claimed: claimed.length, completed: 0, failed: 0, released: 0 };
  const pending = [...claimed];
  const inFlight = new Map<string, AbortController>();
  let serverTrouble = false;

  // Once claiming stops (budget spent or signal), files in flight get graceMs, then are released.
  let hardStop: NodeJS.Timeout | undefined;
  const armHardStop = () => {
    hardStop ??= setTimeout(() => {
      for (const controller of inFlight.values()) controller.abort(new TransferStopped("released"));
    }, graceMs);
  };
  const budgetTimer = Number.isFinite(budgetMs) ? setTimeout(armHardStop, budgetMs) : undefined;
  options.signal?.addEventListener("abort", armHardStop);
  if (options.signal?.aborted) armHardStop();
  // A failing server, the signal or the spent budget end the batch: entries not started are released.
  const mayStart = () => !serverTrouble && !options.signal?.aborted && Date.now() - started < budgetMs;
  const mayClaim = () => claimMore && mayStart();
  // Database writes after a transfer run while the slot starts its next file; awaited at the end.
  const settling = new Set<Promise<void>>();
  const track = (work: Promise<void>) => {
    settling.add(work);
    void work.finally(() => settling.delete(work));
  };

  async function record(entry: ClaimedEntry, outcome: TransferOutcome, bytes: number, startedAt: number, error?: string) {
    const ms = Math.round(performance.now() - startedAt);
    reports.push({ id: entry.id, outcome, bytes, ms, error });
    countTransfer(outcome, bytes);
    const rate = outcome === "completed" && ms > 0 ? ` rate=${((bytes / 1048576) * (1000 / ms)).toFixed(1)}MiB/s` : "";
    log(
      `ftp transfer job=${entry.id} order=${entry.order_prefix} attempt=${entry.attempts} size=${entry.file_size ?? bytes} bytes=${bytes} ms=${ms}${rate} outcome=${outcome} worker=${workerId}` +
        (error ? ` error=${JSON.stringify(error)}` : ""),
    );
  }

  async function settle(entry: ClaimedEntry, update: () => Promise<boolean>, what: string) {
    try {
      if (!(await update())) log(`ftp queue: job=${entry.id} was no longer held by ${workerId} when it ${what}`);
    } catch (error) {
      // The lease runs out and the entry is claimed again (an already delivered file is not resent).
      log(`ftp queue: could not record that job=${entry.id} ${what}: ${messageOf(error)}`);
    }
  }

  async function handle(session: FileServerSession, entry: ClaimedEntry) {
    const controller = new AbortController();
    inFlight.set(entry.id, controller);
    const startedAt = performance.now();
    try {
      const bytes = await transferEntry(session, storage, entry, { root: fileServer.root, signal: controller.signal, ensuredDirs });
      inFlight.delete(entry.id);
      counts.completed++;
      track(settle(entry, () => completeEntry(db, entry.id, workerId), "completed").then(() => record(entry, "completed", bytes, startedAt)));
    } catch (error) {
      inFlight.delete(entry.id);
      const stopped = controller.signal.aborted ? controller.signal.reason : null;
      if (stopped instanceof TransferStopped && stopped.outcome === "lease_lost") {
        await record(entry, "lease_lost", 0, startedAt);
      } else if (stopped) {
        counts.released++;
        track(settle(entry, () => releaseEntry(db, entry.id, workerId), "was released").then(() => record(entry, "released", 0, startedAt)));
      } else {
        const message = messageOf(error);
        if (!(error instanceof StorageReadError)) serverTrouble = true;
        counts.failed++;
        const delay = retryDelayMs(entry.attempts, settings.retryBaseMs, settings.retryMaxMs);
        track(settle(entry, () => failEntry(db, entry.id, workerId, message, delay), "failed").then(() => record(entry, "failed", 0, startedAt, message)));
      }
    }
  }

  // Claims run ahead of the slots (up to `concurrency` entries waiting), so no slot waits for the
  // database between two files.
  let claiming: Promise<void> | null = null;
  let nothingDue = false;
  const refill = (): Promise<void> => {
    claiming ??= claimDueEntries(db, workerId, settings.concurrency, settings)
      .then((rows) => {
        counts.claimed += rows.length;
        pending.push(...rows);
        if (rows.length === 0) nothingDue = true;
      })
      .catch((error) => {
        log(`ftp queue: claiming failed: ${messageOf(error)}`);
        nothingDue = true;
      })
      .finally(() => {
        claiming = null;
      });
    return claiming;
  };
  async function nextEntry(): Promise<ClaimedEntry | undefined> {
    for (;;) {
      if (!mayStart()) return undefined;
      const entry = pending.shift();
      if (entry) {
        if (pending.length < settings.concurrency && !nothingDue && mayClaim()) void refill();
        return entry;
      }
      if (nothingDue || !mayClaim()) return undefined;
      await refill();
    }
  }

  const ensuredDirs = new Map<string, Promise<void>>();
  let session: FileServerSession | null = null;
  const heartbeat = setInterval(
    () => {
      const ids = [...inFlight.keys(), ...pending.map((entry) => entry.id)];
      renewLeases(db, workerId, ids, settings.leaseSeconds)
        .then((held) => {
          for (const id of ids) {
            if (held.has(id)) continue;
            inFlight.get(id)?.abort(new TransferStopped("lease_lost"));
            const waiting = pending.findIndex((entry) => entry.id === id);
            if (waiting >= 0) pending.splice(waiting, 1);
          }
        })
        .catch((error) => log(`ftp queue: lease renewal failed: ${messageOf(error)}`));
    },
    Math.max(200, (settings.leaseSeconds * 1000) / 3),
  );
  try {
    try {
      session = await fileServer.connect();
    } catch (error) {
      const message = `${fileServer.kind === "sftp" ? "SFTP" : "File server"}: ${messageOf(error)}`;
      for (const entry of pending.splice(0)) {
        counts.failed++;
        const delay = retryDelayMs(entry.attempts, settings.retryBaseMs, settings.retryMaxMs);
        await settle(entry, () => failEntry(db, entry.id, workerId, message, delay), "failed");
        await record(entry, "failed", 0, performance.now(), message);
      }
      return { counts, reports, ms: Date.now() - started };
    }
    const connected = session;
    const slot = async () => {
      for (let entry = await nextEntry(); entry; entry = await nextEntry()) await handle(connected, entry);
    };
    await Promise.all(Array.from({ length: settings.concurrency }, slot));
    await claiming;
    // Claimed but never started (the server failed, the budget ran out, stopping): give them back.
    for (const entry of pending.splice(0)) {
      counts.released++;
      track(settle(entry, () => releaseEntry(db, entry.id, workerId), "was released"));
    }
    await Promise.all(settling);
  } finally {
    clearInterval(heartbeat);
    clearTimeout(budgetTimer);
    clearTimeout(hardStop);
    options.signal?.removeEventListener("abort", armHardStop);
    await session?.end().catch(() => {});
  }
  return { counts, reports, ms: Date.now() - started };
}

/**
 * One run over the queue: claims due entries (up to `concurrency` at a time) and sends them over
 * one connection until nothing is due, the budget is spent or the signal fires.
 */
export async function processQueue(deps: QueueDeps, settings: QueueSettings, options: RunOptions = {}): Promise<QueueRunSummary> {
  const started = Date.now();
  const workerId = options.workerId ?? newWorkerId();
  await failInterruptedExhausted(deps.db, settings.maxAttempts);
  const claimed = options.signal?.aborted ? [] : await claimDueEntries(deps.db, workerId, Math.max(1, settings.concurrency), settings);
  const batch = claimed.length
    ? await runBatch(deps, settings, workerId, claimed, true, options)
    : { counts: { claimed: 0, completed: 0, failed: 0, released: 0 }, reports: [] };
  return {
    ...batch.counts,
    remaining: await countRemaining(deps.db, settings.maxAttempts),
    ms: Date.now() - started,
    transfers: batch.reports,
  };
}

export type SendNowResult =
  | { ok: true; bytes: number }
  | { ok: false; reason: "not_found" | "completed" | "busy" }
  | { ok: false; reason: "failed"; error: string };

/** Staff's per-row upload: sends one entry now, paid or not (it stays released for the workers if it fails). */
export async function sendEntryNow(deps: QueueDeps, settings: QueueSettings, id: string, staffLabel: string): Promise<SendNowResult> {
  const workerId = newWorkerId("staff");
  const claim = await claimEntryForStaff(deps.db, id, workerId, staffLabel, settings);
  if (!claim.ok) return claim;
  const batch = await runBatch(deps, { ...settings, concurrency: 1 }, workerId, [claim.entry], false, {});
  const report = batch.reports[0];
  if (report?.outcome === "completed") return { ok: true, bytes: report.bytes };
  return { ok: false, reason: "failed", error: report?.error ?? "Неизвестная ошибка" };
}
