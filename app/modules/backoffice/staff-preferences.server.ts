import type { DB } from "~/modules/db/db.server";
import type { OrdersView } from "./dashboard-tabs";

/**
 * A staff member's remembered choices on the orders dashboard (ADR 067): cards or table, and the
 * statistics folded. Kept per user in the database — a preference cookie would have to be named
 * in the privacy notice, which names only cookies the service needs. Staff who came in through
 * the shared password have no user: their choice lives in the address only.
 */
export interface StaffPreferences {
  ordersView: OrdersView;
  statisticsFolded: boolean;
}

export const DEFAULT_PREFERENCES: StaffPreferences = {
  ordersView: "cards",
  statisticsFolded: false,
};

export async function staffPreferences(
  db: DB,
  userId: string | null
): Promise<StaffPreferences> {
  if (!userId) return DEFAULT_PREFERENCES;
  const row = await db
    .selectFrom("staff_preferences")
    .select(["orders_view", "statistics_folded"])
    .where("user_id", "=", userId)
    .executeTakeFirst();
  return row
    ? { ordersView: row.orders_view, statisticsFolded: row.statistics_folded }
    : DEFAULT_PREFERENCES;
}

export async function rememberPreferences(
  db: DB,
  userId: string,
  change: Partial<StaffPreferences>
): Promise<void> {
  const values = {
    ...(change.ordersView ? { orders_view: change.ordersView } : {}),
    ...(change.statisticsFolded === undefined
      ? {}
      : { statistics_folded: change.statisticsFolded }),
  };
  await db
    .insertInto("staff_preferences")
    .values({ user_id: userId, ...values })
    .onConflict((oc) =>
      oc.column("user_id").doUpdateSet({ ...values, updated_at: new Date() })
    )
    .execute();
}
