import { sql } from "kysely";
import type { DB } from "~/modules/db/db.server";
import { UNDO_WINDOW_MINUTES } from "./status";

/**
 * The status history as the outbox of status mails (ADR 075): a run claims due changes for a lease
 * (`mail_due_at`), and each is marked handled, postponed after a failed attempt, or failed for good.
 * What the mails say and when to give up is notifications/status-mail.server.ts's.
 */

/**
 * Claims up to `limit` due changes for `leaseMinutes`: not handled or failed, not held by another
 * run, and out of the time a staff change can be undone in (ADR 062; a payment's goes at once).
 */
export function claimStatusChanges(db: DB, limit: number, leaseMinutes: number) {
  const due = db
    .selectFrom("order_status_history")
    .select("id")
    .where("notified_at", "is", null)
    .where("mail_failed_at", "is", null)
    .where((eb) => eb.or([eb("mail_due_at", "is", null), eb("mail_due_at", "<=", sql<Date>`now()`)]))
    // A staff change waits out the time it can be undone in (ADR 062); a payment's goes at once.
    .where((eb) => eb.or([eb("to_status", "=", "paid"), eb("created_at", "<=", sql<Date>`now() - make_interval(mins => ${UNDO_WINDOW_MINUTES})`)]))
    .orderBy("created_at")
    .limit(limit)
    .forUpdate()
    .skipLocked();
  return db
    .updateTable("order_status_history")
    .set({
      mail_attempts: sql<number>`mail_attempts + 1`,
      mail_due_at: sql<Date>`now() + make_interval(mins => ${leaseMinutes})`,
    })
    .where(sql<boolean>`id = any(array(${due}))`)
    .where("notified_at", "is", null)
    .returning(["id", "order_id", "to_status", "tracking_number", "carrier", "mail_attempts"])
    .execute();
}

/** The change is handled: its mail accepted, or nothing to send. */
export async function markStatusMailSent(db: DB, id: string): Promise<void> {
  await db.updateTable("order_status_history").set({ notified_at: sql<Date>`now()`, mail_due_at: null, mail_error: null }).where("id", "=", id).execute();
}

/** The change's mail failed for the last time: given up, with the error kept for staff. */
export async function markStatusMailFailed(db: DB, id: string, message: string): Promise<void> {
  await db.updateTable("order_status_history").set({ mail_failed_at: sql<Date>`now()`, mail_due_at: null, mail_error: message.slice(0, 500) }).where("id", "=", id).execute();
}

/** The change's mail failed this time: due again in `minutes`, with the error kept. */
export async function postponeStatusMail(db: DB, id: string, minutes: number, message: string): Promise<void> {
  await db
    .updateTable("order_status_history")
    .set({ mail_due_at: sql<Date>`now() + make_interval(mins => ${minutes})`, mail_error: message.slice(0, 500) })
    .where("id", "=", id)
    .execute();
}
