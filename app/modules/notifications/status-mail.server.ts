import type { DB } from "~/modules/db/db.server";
import { getConfig } from "~/modules/config/config.server";
import { remixI18n } from "~/modules/i18n/i18n.server";
import { MARKET_TRAITS } from "~/modules/market/market";
import { publicOrigin } from "~/modules/market/market.server";
import { createMailer, type Mailer } from "~/modules/mail/mailer.server";
import { formatMoney } from "~/modules/money/format";
import { longOrderNumber, orderColumns } from "~/modules/orders/orders.server";
import { claimStatusChanges, markStatusMailFailed, markStatusMailSent, postponeStatusMail } from "~/modules/orders/status-mail-outbox.server";
import { cabinetOrderPath } from "~/modules/orders/cabinet-links";
import { paidDocuments } from "~/modules/payments/payments.server";
import { logger } from "~/modules/log/logger.server";
import { carrierName, trackingLink } from "~/modules/config/carriers";

/**
 * Status mails (DESIGN §4.32): when an order becomes paid, shipped or completed and its client's
 * channel is e-mail, one short mail goes out per change. The status history is the outbox (ADR 075):
 * a run claims due changes for a lease (`mail_due_at`), sends each, and marks it notified only once
 * the mail server accepted the mail. A send that fails is due again after a backoff; after
 * `STATUS_MAIL_RETRY.attempts` attempts it is marked failed and logged as an error. A worker that
 * dies between the server's acceptance and the record leaves the claim to run out, and the next run
 * sends the mail again: a mail may go twice, never zero times. A staff change waits out the time it
 * can be undone in (ADR 062), and an undone change is marked handled, so it is never mailed. The
 * outbox's statements are the order data's (orders/status-mail-outbox.server.ts).
 */
export const NOTIFIED_STATUSES = ["paid", "shipped", "completed"] as const;

export const STATUS_MAIL_RETRY = {
  /** Attempts before a mail is given up as failed. */
  attempts: 8,
  /** How long a claimed mail is held by the run that claimed it; then it is due again (a crashed run). */
  leaseMinutes: 5,
  /** The wait after the n-th failed attempt (the last repeats): about a day in all. */
  backoffMinutes: [1, 5, 15, 60, 180, 360, 720],
};

const backoffAfter = (attempts: number) => STATUS_MAIL_RETRY.backoffMinutes[Math.min(attempts, STATUS_MAIL_RETRY.backoffMinutes.length) - 1]!;

let mailer: Mailer | undefined;

export interface StatusMailRun {
  sent: number;
  /** Handled without a mail: a status not mailed, no address, another channel. */
  skipped: number;
  /** Failed this time and due again after the backoff. */
  retried: number;
  /** Failed for the last time: marked failed. */
  failed: number;
}

export async function sendStatusMails(db: DB, options: { limit?: number; mailer?: Mailer; publicUrl?: string } = {}): Promise<StatusMailRun> {
  const sender = options.mailer ?? (mailer ??= createMailer(getConfig()));
  const claimed = await claimStatusChanges(db, options.limit ?? 50, STATUS_MAIL_RETRY.leaseMinutes);
  const run: StatusMailRun = { sent: 0, skipped: 0, retried: 0, failed: 0 };
  for (const change of claimed) {
    try {
      if (await sendOne(db, sender, change, options.publicUrl)) run.sent++;
      else run.skipped++;
    } catch (error) {
      // Not accepted: due again after the backoff, or given up after the last attempt.
      const message = error instanceof Error ? error.message : String(error);
      if (change.mail_attempts >= STATUS_MAIL_RETRY.attempts) {
        run.failed++;
        logger.error(`status mail failed for good after ${change.mail_attempts} attempts (order ${change.order_id}, ${change.to_status}):`, error);
        await markStatusMailFailed(db, change.id, message);
      } else {
        run.retried++;
        logger.warn(`status mail not sent, attempt ${change.mail_attempts} of ${STATUS_MAIL_RETRY.attempts} (order ${change.order_id}, ${change.to_status}):`, error);
        await postponeStatusMail(db, change.id, backoffAfter(change.mail_attempts), message);
      }
      continue;
    }
    // Recorded only now: a worker that dies before this line leaves the claim to run out, and the mail goes again.
    await markStatusMailSent(db, change.id);
  }
  return run;
}

interface ClaimedChange {
  id: string;
  order_id: string;
  to_status: string;
  tracking_number: string | null;
  carrier: string | null;
}

/** Sends one change's mail; false when it has none to send. Throws when the mail server did not take it. */
async function sendOne(db: DB, sender: Mailer, change: ClaimedChange, publicUrl: string | undefined): Promise<boolean> {
  if (!(NOTIFIED_STATUSES as readonly string[]).includes(change.to_status)) return false;
  const order = await orderColumns(db, change.order_id, ["id", "email", "market", "language", "anonymised_at"]);
  // An anonymised order has no address to write to: after the period none, after an erasure a pseudonym (ADR 079).
  if (!order?.email || order.anonymised_at) return false;
  const settings = await db.selectFrom("client_settings").select("notification_channel").where("email", "=", order.email).executeTakeFirst();
  if ((settings?.notification_channel ?? "email") !== "email") return false;
  // The client's own language when the order recorded one (ADR 024), else the market's.
  const t = await remixI18n.getFixedT(order.language ?? MARKET_TRAITS[order.market].defaultLanguage, "common");
  const number = longOrderNumber(order.id);
  const status = t(`orderStatus.${change.to_status}`);
  const base = publicUrl ?? publicOrigin(order.market);
  // The paid mail carries the payment document: amount paid and the clinic's VAT number, if given.
  const paid = change.to_status === "paid" ? (await paidDocuments(db, [order.id])).get(order.id) : undefined;
  const language = order.language ?? MARKET_TRAITS[order.market].defaultLanguage;
  const follow = trackingLink(getConfig().carriers, change.carrier, change.tracking_number);
  const details = [
    change.tracking_number ? t("notifications.tracking", { number: change.tracking_number }) : "",
    follow ? t("notifications.trackingLink", { carrier: carrierName(getConfig().carriers, change.carrier), url: follow }) : "",
    paid ? t("notifications.paidAmount", { amount: formatMoney(paid.amount, paid.currency, language) }) : "",
    paid?.vatNumber ? t("notifications.vatNumber", { vat: paid.vatNumber }) : "",
  ].join("");
  await sender.send({
    to: order.email,
    subject: t("notifications.subject", { number, status }),
    text: t("notifications.text", {
      number,
      status,
      // The lines after the status (tracking number, payment document).
      tracking: details,
      // The order itself in the cabinet: signed in it opens at once, else after sign-in (ADR 070).
      link: `${base}${cabinetOrderPath(order.id)}`,
    }),
  });
  return true;
}
