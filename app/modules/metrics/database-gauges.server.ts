import { sql } from "kysely";
import client from "prom-client";
import type { DB } from "~/modules/db/db.server";
import { CODE_SPACE } from "~/modules/orders/order-codes";
import { countHeldCodes } from "~/modules/orders/order-codes.server";
import { oldestDueSeconds } from "~/modules/orders/production-queue.server";

/**
 * The gauges read from the database when metrics are scraped (ADR 073): whether the database
 * answers, the production file server queue, the order-code space, payments left pending and how long
 * ago housekeeping last ran. Each
 * query is bounded by an index and by what the scheduled job keeps small (abandoned drafts go
 * after 30 days, codes are at most 65,536), so a scrape costs milliseconds at any age of the
 * service. Kept in a registry of their own: the process that answers the scrape reads them once,
 * where the per-process counters are gathered from every worker.
 */

/** A payment attempt still open this long after it was made has lost its provider's answer. */
export const STUCK_PAYMENT_HOURS = 24;
/** Attempts older than this are not looked at again (the alert has had its days). */
const STUCK_PAYMENT_WINDOW_DAYS = 30;
/** Counts stop here: past it, the number no longer changes what to do. */
const COUNT_CAP = 100_000;
/** A scrape never waits longer than this for the database; a slower answer reads as down. */
const READ_TIMEOUT_MS = 3_000;

const OPEN_QUEUE_STATUSES = ["pending", "uploading", "failed"] as const;

function createGauges() {
  const registry = new client.Registry();
  const gauge = <L extends string = never>(name: string, help: string, labelNames: readonly L[] = []) => new client.Gauge<L>({ name, help, labelNames, registers: [registry] });
  return {
    registry,
    databaseUp: gauge("aligner_database_up", "1 when the database answered this scrape's queries in time, else 0."),
    queueEntries: gauge("aligner_ftp_queue_entries", "Files not yet delivered to the production file server, by status (completed ones are counted by aligner_ftp_transfers_total).", ["status"]),
    queueGivenUp: gauge("aligner_ftp_queue_given_up_entries", "Files whose attempts are used up: they wait for staff to send them by hand."),
    queueOldestDue: gauge("aligner_ftp_queue_oldest_due_seconds", "How long the longest-waiting file of a paid (or staff-released) order has waited to be delivered; 0 when none waits."),
    codesHeld: gauge("aligner_order_codes_held", "Order codes held now (each for a year after its order was created)."),
    codesTotal: gauge("aligner_order_codes_total", "Order codes there are (65,536)."),
    paymentsStuck: gauge("aligner_payments_stuck_pending", `Payment attempts still created or pending ${STUCK_PAYMENT_HOURS} hours after they were made (last ${STUCK_PAYMENT_WINDOW_DAYS} days).`),
    housekeepingAge: gauge(
      "aligner_housekeeping_last_pass_age_seconds",
      "Seconds since the deployment's last housekeeping pass started, whichever process ran it (ADR 084); before the first, since the database got housekeeping.",
    ),
  };
}

export type DatabaseGauges = ReturnType<typeof createGauges>;

let gauges: DatabaseGauges | undefined;

export function databaseGauges(): DatabaseGauges {
  return (gauges ??= createGauges());
}

async function readAll(db: DB, maxAttempts: number) {
  const byStatus = await Promise.all(
    OPEN_QUEUE_STATUSES.map(async (status) => {
      const { rows } = await sql<{ n: number }>`
        select count(*)::int as n from (select 1 from ftp_uploads_queue where status = ${status} and removed_at is null limit ${COUNT_CAP}) as capped`.execute(db);
      return [status, Number(rows[0]?.n ?? 0)] as const;
    }),
  );
  const givenUp = await sql<{ n: number }>`
    select count(*)::int as n from (
      select 1 from ftp_uploads_queue where status = 'failed' and removed_at is null and attempts >= ${maxAttempts} limit ${COUNT_CAP}
    ) as capped`.execute(db);
  // Waiting since it was uploaded, or since its order was paid (or staff released it), whichever is later.
  const oldest = await oldestDueSeconds(db);
  const held = await countHeldCodes(db);
  const stuck = await sql<{ n: number }>`
    select count(*)::int as n from payments
     where status in ('created', 'pending')
       and created_at < now() - make_interval(hours => ${STUCK_PAYMENT_HOURS})
       and created_at > now() - make_interval(days => ${STUCK_PAYMENT_WINDOW_DAYS})`.execute(db);
  // One row (ADR 084).
  const housekeeping = await sql<{ seconds: number }>`
    select extract(epoch from now() - coalesce(last_started_at, created_at))::float8 as seconds from housekeeping_lease`.execute(db);
  return {
    byStatus,
    housekeepingSeconds: Math.max(0, Number(housekeeping.rows[0]?.seconds ?? 0)),
    givenUp: Number(givenUp.rows[0]?.n ?? 0),
    oldestSeconds: Math.max(0, Number(oldest ?? 0)),
    held,
    stuck: Number(stuck.rows[0]?.n ?? 0),
  };
}

/**
 * Reads every database gauge; when the database does not answer in time, `aligner_database_up` is
 * 0 and the other gauges read 0 rather than an old value (their alerts give way to the database's).
 */
export async function readDatabaseGauges(db: DB, options: { maxAttempts: number; timeoutMs?: number }): Promise<void> {
  const g = databaseGauges();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error("the database did not answer in time")), options.timeoutMs ?? READ_TIMEOUT_MS);
  });
  try {
    const read = await Promise.race([readAll(db, options.maxAttempts), timeout]);
    g.databaseUp.set(1);
    for (const [status, n] of read.byStatus) g.queueEntries.set({ status }, n);
    g.queueGivenUp.set(read.givenUp);
    g.queueOldestDue.set(read.oldestSeconds);
    g.codesHeld.set(read.held);
    g.codesTotal.set(CODE_SPACE);
    g.paymentsStuck.set(read.stuck);
    g.housekeepingAge.set(read.housekeepingSeconds);
  } catch {
    g.databaseUp.set(0);
    for (const metric of [g.queueEntries, g.queueGivenUp, g.queueOldestDue, g.codesHeld, g.codesTotal, g.paymentsStuck, g.housekeepingAge]) metric.reset();
  } finally {
    clearTimeout(timer);
  }
}
