import { sql } from "kysely";
import type { DB } from "~/modules/db/db.server";

export interface RateLimitResult {
  allowed: boolean;
  count: number;
  retryAfterSeconds: number;
}

/**
 * Counts `amount` (one hit, or e.g. megabytes) against `key` in a fixed window, atomically, in PostgreSQL (shared by every app
 * instance). Allowed while the count stays within `limit`.
 */
export async function hitRateLimit(db: DB, key: string, limit: number, windowSeconds: number, amount = 1): Promise<RateLimitResult> {
  const window = sql`make_interval(secs => ${windowSeconds})`;
  const row = await db
    .insertInto("rate_limits")
    .values({ key, count: amount, window_started_at: sql`now()`, expires_at: sql`now() + ${window}` })
    .onConflict((oc) =>
      oc.column("key").doUpdateSet({
        count: sql`case when rate_limits.expires_at <= now() then ${amount}::int else rate_limits.count + ${amount}::int end`,
        window_started_at: sql`case when rate_limits.expires_at <= now() then now() else rate_limits.window_started_at end`,
        expires_at: sql`case when rate_limits.expires_at <= now() then now() + ${window} else rate_limits.expires_at end`,
      }),
    )
    .returning(["count", sql<number>`greatest(0, ceil(extract(epoch from (expires_at - now()))))::int`.as("retry_after")])
    .executeTakeFirstOrThrow();
  return { allowed: row.count <= limit, count: row.count, retryAfterSeconds: Number(row.retry_after) };
}

/**
 * Counts `amount` against `key` only if the count stays within `limit` (a fixed window, as
 * `hitRateLimit`): a refused request is not counted, since it takes nothing. Null when taken; the
 * seconds until the window ends (for `Retry-After`) when refused.
 */
export async function takeWithinLimit(db: DB, key: string, limit: number, windowSeconds: number, amount: number): Promise<{ retryAfterSeconds: number } | null> {
  const window = sql`make_interval(secs => ${windowSeconds})`;
  const refusedUntilWindowEnds = async () => ({ retryAfterSeconds: (await limitedFor(db, key, 0)) ?? windowSeconds });
  // More than a whole window allows: no window ever takes it.
  if (amount > limit) return refusedUntilWindowEnds();
  const taken = await db
    .insertInto("rate_limits")
    .values({ key, count: amount, window_started_at: sql`now()`, expires_at: sql`now() + ${window}` })
    .onConflict((oc) =>
      oc
        .column("key")
        .doUpdateSet({
          count: sql`case when rate_limits.expires_at <= now() then ${amount}::int else rate_limits.count + ${amount}::int end`,
          window_started_at: sql`case when rate_limits.expires_at <= now() then now() else rate_limits.window_started_at end`,
          expires_at: sql`case when rate_limits.expires_at <= now() then now() + ${window} else rate_limits.expires_at end`,
        })
        .where(sql<boolean>`rate_limits.expires_at <= now() or rate_limits.count + ${amount}::int <= ${limit}::int`),
    )
    .returning("count")
    .executeTakeFirst();
  return taken ? null : refusedUntilWindowEnds();
}

/** Gives back `amount` taken from `key` for something that then did not happen. */
export async function giveBack(db: DB, key: string, amount: number): Promise<void> {
  await db
    .updateTable("rate_limits")
    .set({ count: sql`greatest(0, count - ${amount}::int)` })
    .where("key", "=", key)
    .execute();
}

/** When `key` is already over its limit, the seconds until its window ends (for `Retry-After`); else null. Counts no hit. */
export async function limitedFor(db: DB, key: string, limit: number): Promise<number | null> {
  const row = await db
    .selectFrom("rate_limits")
    .select(["count", sql<number>`greatest(1, ceil(extract(epoch from (expires_at - now()))))::int`.as("retry_after")])
    .where("key", "=", key)
    .where("expires_at", ">", sql<Date>`now()`)
    .executeTakeFirst();
  return row && row.count >= limit ? Number(row.retry_after) : null;
}

/** Whether `key` is already over its limit, without counting a hit. */
export async function isRateLimited(db: DB, key: string, limit: number): Promise<boolean> {
  return (await limitedFor(db, key, limit)) !== null;
}

export async function clearRateLimit(db: DB, key: string) {
  await db.deleteFrom("rate_limits").where("key", "=", key).execute();
}
