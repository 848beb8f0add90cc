import client from "prom-client";

/**
 * The service's own metrics (ADR 073): one registry per process, counted by the few places where
 * things happen through the small functions below. Served in the Prometheus text format on
 * METRICS_PORT (./metrics-server.server.ts), never on the public port.
 *
 * Every label takes its values from a closed list, so the number of series stays bounded whatever
 * visitors send: an unknown value is counted as "other". Routes are Remix route ids, never URLs.
 *
 * server.mts loads this module from source and the Remix build carries its own copy: both must
 * count into the same registry, so the instruments live once per process on `globalThis`.
 */

export const MARKETS = ["domestic", "international"] as const;
/** The card providers, and `invoice`: a bank transfer staff record against an invoice (ADR 072). */
export const PAYMENT_PROVIDERS = ["yookassa", "stripe", "sandbox", "invoice"] as const;
/**
 * What a provider's answer came to (payments/reconciliation.server.ts): applied (paid … unknown_payment),
 * or a notification left aside (ignored, duplicate) or refused (refused, unavailable, not_configured).
 */
export const PAYMENT_OUTCOMES = [
  "paid",
  "already_paid",
  "waiting",
  "failed",
  "update_failed",
  "mismatch",
  "unknown_payment",
  "ignored",
  "duplicate",
  "refused",
  "unavailable",
  "not_configured",
] as const;
export const TRANSFER_OUTCOMES = ["completed", "failed", "released", "lease_lost"] as const;
export const HOUSEKEEPING_OUTCOMES = ["completed", "failed"] as const;
/** plain: the file as chosen (the form, or a resumable upload without encoding); gzip and packed: compressed in the browser (ADR 033, 045). */
export const UPLOAD_KINDS = ["plain", "gzip", "packed"] as const;
/** The refusals of both upload paths (uploads/upload-handler.server.ts, uploads/tus-finish.server.ts). */
export const UPLOAD_REFUSALS = [
  "format",
  "size",
  "not_stl",
  "truncated",
  "empty",
  "quota",
  "clinic_quota",
  "too_many",
  "rate_limited",
  "daily_limit",
  "frozen",
  "no_patient",
  "skipped",
  "gone",
  "save",
  "damaged",
  "mismatch",
  "storage",
  "other",
] as const;

/** Request durations in seconds: pages answer in milliseconds, uploads may take many minutes. */
const DURATION_BUCKETS = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 120];

function createInstruments() {
  const registry = new client.Registry();
  client.collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 20 });
  // Read from the open pools whenever the registry is read (a scrape, or the primary asking a worker).
  const gauge = (name: string, help: string) => new client.Gauge({ name, help, registers: [registry], collect: readPools });
  const counter = <L extends string>(name: string, help: string, labelNames: readonly L[]) => new client.Counter<L>({ name, help, labelNames, registers: [registry] });
  return {
    registry,
    requestDuration: new client.Histogram<"route" | "kind" | "status">({
      name: "aligner_http_request_duration_seconds",
      help: "Time from a request's arrival to the end of its answer, by Remix route id (or none), kind of route and status class (2xx…5xx).",
      labelNames: ["route", "kind", "status"],
      buckets: DURATION_BUCKETS,
      registers: [registry],
    }),
    requestsInFlight: new client.Gauge({ name: "aligner_http_requests_in_flight", help: "Requests being answered now.", registers: [registry] }),
    poolInUse: gauge("aligner_db_pool_in_use", "Database connections checked out of the pool (0 on the embedded database, which has no pool)."),
    poolIdle: gauge("aligner_db_pool_idle", "Open database connections waiting in the pool."),
    poolWaiting: gauge("aligner_db_pool_waiting", "Queries waiting for a free database connection."),
    poolMax: gauge("aligner_db_pool_max", "The pools' largest number of connections."),
    transfers: counter("aligner_ftp_transfers_total", "Files the queue tried to send to the production file server, by outcome.", ["outcome"]),
    transferredBytes: counter("aligner_ftp_transferred_bytes_total", "Bytes of files delivered to the production file server.", []),
    uploadBytes: counter("aligner_upload_received_bytes_total", "Bytes of uploaded files received as sent (compressed ones compressed), counted when a file is whole.", ["kind"]),
    uploadRefusals: counter("aligner_upload_refusals_total", "Uploaded files refused, by reason.", ["reason"]),
    ordersCreated: counter("aligner_orders_created_total", "Orders created (drafts), by market.", ["market"]),
    ordersPaid: counter("aligner_orders_paid_total", "Orders that became paid, by market.", ["market"]),
    payments: counter("aligner_payments_total", "Providers' verified answers about payments, and transfers staff record against invoices, by provider and what applying them came to.", ["provider", "outcome"]),
    mails: counter("aligner_mails_total", "Mails handed to the mail server (or the outbox), by result.", ["result"]),
    housekeepingPasses: counter(
      "aligner_housekeeping_passes_total",
      "Housekeeping passes this process ran, by outcome (ADR 084): one an interval for the whole deployment, run by whichever process took the lease.",
      ["outcome"],
    ),
  };
}

export type Instruments = ReturnType<typeof createInstruments>;

const KEY = Symbol.for("aligner.metrics");

/** This process's instruments, with every bounded label combination at zero from the start. */
export function instruments(): Instruments {
  const store = globalThis as Record<symbol, Instruments | undefined>;
  if (store[KEY]) return store[KEY];
  const made = createInstruments();
  for (const outcome of TRANSFER_OUTCOMES) made.transfers.inc({ outcome }, 0);
  made.transferredBytes.inc(0);
  for (const kind of UPLOAD_KINDS) made.uploadBytes.inc({ kind }, 0);
  for (const reason of UPLOAD_REFUSALS) made.uploadRefusals.inc({ reason }, 0);
  for (const market of MARKETS) {
    made.ordersCreated.inc({ market }, 0);
    made.ordersPaid.inc({ market }, 0);
  }
  for (const provider of PAYMENT_PROVIDERS) for (const outcome of PAYMENT_OUTCOMES) made.payments.inc({ provider, outcome }, 0);
  for (const result of ["sent", "failed"]) made.mails.inc({ result }, 0);
  for (const outcome of HOUSEKEEPING_OUTCOMES) made.housekeepingPasses.inc({ outcome }, 0);
  store[KEY] = made;
  return made;
}

/** The value itself when it is one of `allowed`, else "other": labels never take a visitor's words. */
export function bounded<T extends string>(value: string | null | undefined, allowed: readonly T[]): T | "other" {
  return allowed.includes(value as T) ? (value as T) : "other";
}

export function countTransfer(outcome: (typeof TRANSFER_OUTCOMES)[number], bytes: number) {
  const { transfers, transferredBytes } = instruments();
  transfers.inc({ outcome });
  if (outcome === "completed" && bytes > 0) transferredBytes.inc(bytes);
}

export function countUploadBytes(kind: (typeof UPLOAD_KINDS)[number], bytes: number) {
  if (bytes > 0) instruments().uploadBytes.inc({ kind }, bytes);
}

export function countUploadRefusal(reason: string) {
  instruments().uploadRefusals.inc({ reason: bounded(reason, UPLOAD_REFUSALS) });
}

export function countOrderCreated(market: string) {
  instruments().ordersCreated.inc({ market: bounded(market, MARKETS) });
}

export function countOrderPaid(market: string) {
  instruments().ordersPaid.inc({ market: bounded(market, MARKETS) });
}

export function countPayment(provider: string, outcome: string) {
  instruments().payments.inc({ provider: bounded(provider, PAYMENT_PROVIDERS), outcome: bounded(outcome, PAYMENT_OUTCOMES) });
}

export function countMail(result: "sent" | "failed") {
  instruments().mails.inc({ result });
}

export function countHousekeepingPass(outcome: (typeof HOUSEKEEPING_OUTCOMES)[number]) {
  instruments().housekeepingPasses.inc({ outcome });
}

/** What the metrics need of a pg pool (its own counters). */
export interface WatchedPool {
  readonly totalCount: number;
  readonly idleCount: number;
  readonly waitingCount: number;
  readonly options: { max?: number };
  readonly ending?: boolean;
  readonly ended?: boolean;
}

const POOLS = Symbol.for("aligner.metrics.pools");

/** Reports a database pool's connections with this process's metrics until it ends. */
export function watchPool(pool: WatchedPool) {
  const store = globalThis as Record<symbol, Set<WatchedPool> | undefined>;
  (store[POOLS] ??= new Set()).add(pool);
}

/** Sets the pool gauges from the pools this process has open (read at scrape time). */
export function readPools() {
  const pools = (globalThis as Record<symbol, Set<WatchedPool> | undefined>)[POOLS] ?? new Set<WatchedPool>();
  const totals = { inUse: 0, idle: 0, waiting: 0, max: 0 };
  for (const pool of pools) {
    if (pool.ending || pool.ended) {
      pools.delete(pool);
      continue;
    }
    totals.inUse += pool.totalCount - pool.idleCount;
    totals.idle += pool.idleCount;
    totals.waiting += pool.waitingCount;
    totals.max += pool.options.max ?? 10;
  }
  const { poolInUse, poolIdle, poolWaiting, poolMax } = instruments();
  poolInUse.set(totals.inUse);
  poolIdle.set(totals.idle);
  poolWaiting.set(totals.waiting);
  poolMax.set(totals.max);
}

/** A status code's class: "2xx" … "5xx". */
export const statusClass = (status: number) => `${Math.min(5, Math.max(1, Math.floor(status / 100)))}xx`;
