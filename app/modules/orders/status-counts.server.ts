import { type SelectQueryBuilder, sql, type SqlBool } from "kysely";
import type { Database, OrderStatus } from "~db/schema";
import { type DB, plannedCount } from "~/modules/db/db.server";

/**
 * Orders counted per status, each up to `cap + 1` (ADR 066): the tabs of the work list and of the
 * cabinet carry such counts. One statement, one subquery that the database plans once and runs per
 * status — a subquery per tab cost more to plan than to run (bench/statements.mts) — each run reading
 * at most `cap + 1` index entries of `orders`, whatever the table holds.
 */

/** The orders a count reads, filtered but for their status. */
type OrdersQuery = SelectQueryBuilder<Database, "orders", object>;

/** The statement, as rows of (status, count): callers may select more beside them. */
export function statusCountsQuery(db: DB, statuses: readonly OrderStatus[], orders: OrdersQuery, cap: number) {
  const values = sql<{ status: OrderStatus }>`(values ${sql.join(statuses.map((status) => sql`(${status})`))})`.as<"s">(sql`s(status)`);
  return db.selectFrom(values).select((eb) => [
    "s.status",
    eb
      .selectFrom(
        orders
          .where(sql<SqlBool>`orders.status = s.status`)
          .select(sql<number>`1`.as("one"))
          .limit(plannedCount(cap + 1))
          .as("capped"),
      )
      .select(sql<number>`count(*)::int`.as("count"))
      .as("count"),
  ]);
}

/** A tab's count from its statuses' counts: exact up to the cap, `cap + 1` past it (shown as "cap+"). */
export function tabCount(counts: ReadonlyMap<OrderStatus, number>, statuses: readonly OrderStatus[], cap: number): number {
  return Math.min(cap + 1, statuses.reduce((sum, status) => sum + (counts.get(status) ?? 0), 0));
}
