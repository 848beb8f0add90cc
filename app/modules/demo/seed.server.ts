import { sql } from "kysely";
import type { DB } from "~/modules/db/db.server";
import type { Actor } from "~/modules/orders/status";
import { DEMO, DEMO_ADMIN_EMAIL, DEMO_MANAGER_EMAIL } from "./data";
import { seedOrders } from "./orders.server";
import { seedPartnersAndStaff } from "./partners.server";
import { createRandom, DAY, plus } from "./random";

export { DEMO_ADMIN_EMAIL, DEMO_MANAGER_EMAIL } from "./data";
export { storeDemoFiles } from "./files.server";
export { DEMO_MODEL } from "./model";

/**
 * Demo data for development and review: clinics, orders in every status with patients and files,
 * the file-server queue in every state, payments, partners with payouts, staff users and a few
 * translation overrides. Deterministic (a seeded generator; dates relative to `now`) and idempotent:
 * the demo admin user is the marker, written last, so a finished seed is never loaded twice.
 *
 * Orders go through `createOrder`/`changeOrderStatus`, which open their own transactions; PGlite
 * has one connection, so no outer transaction is held open while they run.
 */


export const SEEDED_TABLES = [
  "users",
  "user_roles",
  "client_settings",
  "orders",
  "order_codes",
  "order_status_history",
  "orders_patients",
  "payments",
  "ftp_uploads_queue",
  "partner_codes",
  "partner_affiliates",
  "partner_payouts",
  "translations",
] as const;
export type SeededTable = (typeof SEEDED_TABLES)[number];

export interface SeedSummary {
  /** false when the demo data was already there and nothing was written. */
  seeded: boolean;
  message: string;
  /** Rows per table after the call. */
  counts: Record<SeededTable, number>;
}

async function countRows(db: DB): Promise<Record<SeededTable, number>> {
  const counts = {} as Record<SeededTable, number>;
  for (const table of SEEDED_TABLES) {
    const row = await db
      .selectFrom(table)
      .select(sql<number>`count(*)::int`.as("n"))
      .executeTakeFirstOrThrow();
    counts[table] = Number(row.n);
  }
  return counts;
}

export async function seedDemoData(db: DB, options: { now?: Date } = {}): Promise<SeedSummary> {
  const marker = await db.selectFrom("users").select("id").where("email", "=", DEMO_ADMIN_EMAIL).executeTakeFirst();
  if (marker) {
    return { seeded: false, message: `Demo data already present (${DEMO_ADMIN_EMAIL} exists); nothing changed.`, counts: await countRows(db) };
  }

  const now = options.now ?? new Date();
  const random = createRandom(20261122);
  const staffActors: Actor[] = [
    { kind: "staff", label: DEMO_MANAGER_EMAIL },
    { kind: "staff", label: "back-office password (91.210.45.17)" },
  ];
  const paymentActor: Actor = { kind: "payment", label: "sandbox" };

  // 1. Client conditions, partner codes and translation overrides: plain rows, one transaction.
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto("client_settings")
      .values(
        DEMO.clients.map((client, index) => ({
          email: client.email,
          currency: client.settings.currency,
          aligner_price: client.settings.aligner_price ?? null,
          aligner_single_layer_price: client.settings.aligner_single_layer_price ?? null,
          aligner_three_layer_price: client.settings.aligner_three_layer_price ?? null,
          matrix_price: client.settings.matrix_price ?? null,
          retainer_standard_price: client.settings.retainer_standard_price ?? null,
          retainer_premium_price: client.settings.retainer_premium_price ?? null,
          discount_percentage: client.settings.discount_percentage ?? null,
          personal_comment: client.settings.personal_comment ?? null,
          notification_channel: client.settings.notification_channel,
          created_at: plus(now, -(120 + index * 7) * DAY),
          updated_at: plus(now, -(20 + index * 3) * DAY),
        })),
      )
      .onConflict((oc) => oc.column("email").doNothing())
      .execute();
    await trx
      .insertInto("translations")
      .values(
        DEMO.translations.map((row, index) => ({
          ...row,
          source_language: "ru",
          created_at: plus(now, -(40 - index) * DAY),
          updated_at: plus(now, -(40 - index) * DAY),
        })),
      )
      .onConflict((oc) => oc.columns(["original_text", "source_language", "target_language"]).doNothing())
      .execute();
    await trx
      .insertInto("partner_codes")
      .values(
        DEMO.partners.map((partner, index) => ({
          code: partner.code,
          user_email: partner.userEmail,
          user_name: partner.userName,
          contact_email: partner.contactEmail,
          contact_phone: partner.contactPhone,
          offer_accepted_at: plus(now, -(100 + index * 5) * DAY),
          reward_percentage: partner.reward,
          created_at: plus(now, -(101 + index * 5) * DAY),
        })),
      )
      .onConflict((oc) => oc.column("code").doNothing())
      .execute();
  });

  const firstHandOff = await seedOrders(db, { now, random, staffActors, paymentActor });
  await seedPartnersAndStaff(db, now, firstHandOff);
  return { seeded: true, message: `Demo data loaded (${DEMO.plan.length} orders).`, counts: await countRows(db) };
}
