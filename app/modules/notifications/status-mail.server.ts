import { sql } from "kysely";
import type { DB } from "~/modules/db/db.server";
import { getConfig } from "~/modules/config/config.server";
import { remixI18n } from "~/modules/i18n/i18n.server";
import { MARKET_TRAITS } from "~/modules/market/market";
import { publicOrigin } from "~/modules/market/market.server";
import { createMailer, type Mailer } from "~/modules/mail/mailer.server";
import { formatMoney } from "~/modules/money/format";
import { longOrderNumber } from "~/modules/orders/orders.server";
import { cabinetOrderPath } from "~/modules/orders/cabinet-links";
import { paidDocuments } from "~/modules/payments/payments.server";
import { logger } from "~/modules/log/logger.server";
import { carrierName, trackingLink } from "~/modules/config/carriers";
import { UNDO_WINDOW_MINUTES } from "~/modules/orders/status";

/**
 * Status mails (DESIGN §4.32): when an order becomes paid, shipped or completed and its client's
 * channel is e-mail, one short mail goes out per change. Driven by the status history: each row
 * is claimed once (`notified_at`), so a retry or a second worker never sends it twice.
 */
export const NOTIFIED_STATUSES = ["paid", "shipped", "completed"] as const;

let mailer: Mailer | undefined;

export async function sendStatusMails(db: DB, options: { limit?: number; mailer?: Mailer; publicUrl?: string } = {}): Promise<{ sent: number; skipped: number }> {
  const sender = options.mailer ?? (mailer ??= createMailer(getConfig()));
  const claimed = await db
    .updateTable("order_status_history")
    .set({ notified_at: sql<Date>`now()` })
    .where(
      "id",
      "in",
      db
        .selectFrom("order_status_history")
        .select("id")
        .where("notified_at", "is", null)
        // A staff change waits out the time it can be undone in (ADR 062); a payment's goes at once.
        .where((eb) => eb.or([eb("to_status", "=", "paid"), eb("created_at", "<=", sql<Date>`now() - make_interval(mins => ${UNDO_WINDOW_MINUTES})`)]))
        .orderBy("created_at")
        .limit(options.limit ?? 50)
        .forUpdate()
        .skipLocked(),
    )
    .returning(["id", "order_id", "to_status", "tracking_number", "carrier"])
    .execute();
  let sent = 0;
  let skipped = 0;
  for (const change of claimed) {
    if (!(NOTIFIED_STATUSES as readonly string[]).includes(change.to_status)) {
      skipped++;
      continue;
    }
    const order = await db.selectFrom("orders").select(["id", "email", "market", "language"]).where("id", "=", change.order_id).executeTakeFirst();
    if (!order?.email) {
      skipped++;
      continue;
    }
    const settings = await db.selectFrom("client_settings").select("notification_channel").where("email", "=", order.email).executeTakeFirst();
    if ((settings?.notification_channel ?? "email") !== "email") {
      skipped++;
      continue;
    }
    // The client's own language when the order recorded one (ADR 024), else the market's.
    const t = await remixI18n.getFixedT(order.language ?? MARKET_TRAITS[order.market].defaultLanguage, "common");
    const number = longOrderNumber(order.id);
    const status = t(`orderStatus.${change.to_status}`);
    const base = options.publicUrl ?? publicOrigin(order.market);
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
    try {
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
      sent++;
    } catch (error) {
      // Give it back to the next run.
      logger.error("status mail failed:", error);
      await db.updateTable("order_status_history").set({ notified_at: null }).where("id", "=", change.id).execute();
    }
  }
  return { sent, skipped };
}
