import { randomInt } from "node:crypto";
import { sql } from "kysely";
import type { DB } from "~/modules/db/db.server";
import { CODE_SPACE, codeAt } from "./order-codes";

/**
 * Reserving order codes in `order_codes` (DESIGN §4.6, docs/decisions/038-order-code-space.md). A
 * row is a held code; a row whose `release_after` has passed is free again until housekeeping
 * deletes it. The primary key on `code` decides between concurrent creators, on every process.
 */

export class OrderCodeExhaustedError extends Error {
  constructor() {
    super("Every order code is held: no order can be created until one is released");
    this.name = "OrderCodeExhaustedError";
  }
}

/**
 * How many times a creator may lose a free code it found to another creator before giving up. Each
 * loss means another order got a code meanwhile, so this is only reached under a flood of creators
 * racing for the last few codes.
 */
const MAX_LOST_RACES = 200;

/**
 * The first free code at or after `start` (wrapping around), or null when every code is held. One
 * index probe per held code passed: a few milliseconds at 99 % held, about 0.1 s when all are held (ADR 038).
 */
async function firstFreeCode(db: DB, start: number): Promise<string | null> {
  const { rows } = await sql<{ code: string }>`
    select lpad(to_hex(n % ${CODE_SPACE}), 4, '0') as code
    from generate_series(${start}::int, ${start + CODE_SPACE - 1}::int) as n
    where not exists (
      select 1 from order_codes held
      where held.code = lpad(to_hex(n % ${CODE_SPACE}), 4, '0') and held.release_after >= now()
    )
    limit 1`.execute(db);
  return rows[0]?.code ?? null;
}

/**
 * Reserves a free code in `trx` (the order's own transaction) and returns it; throws
 * OrderCodeExhaustedError only when no code is free. First a random code is probed: at a normal
 * year's occupancy that single insert is all it takes. Otherwise the search starts at a random
 * code, so that concurrent creators rarely find the same one and codes stay spread over the space.
 * Taking a code is the insert: a creator that finds its code taken by another (committed, or still
 * in flight: the insert waits for it) searches again.
 */
export async function reserveFreeCode(trx: DB, reservation: { reservedAt?: Date } = {}): Promise<string> {
  const times = reservation.reservedAt ? { reserved_at: reservation.reservedAt, release_after: new Date(reservation.reservedAt.getTime() + 365 * 86_400_000) } : {};
  const take = async (code: string) => {
    const reserved = await trx
      .insertInto("order_codes")
      .values({ code, ...times })
      .onConflict((oc) => oc.column("code").doNothing())
      .returning("code")
      .executeTakeFirst();
    return reserved?.code ?? null;
  };
  const probed = await take(codeAt(randomInt(CODE_SPACE)));
  if (probed) return probed;
  for (let lost = 0; lost <= MAX_LOST_RACES; lost++) {
    const code = await firstFreeCode(trx, randomInt(CODE_SPACE));
    if (code === null) throw new OrderCodeExhaustedError();
    // A code whose year has passed is free again; the old order keeps its code column.
    await trx.deleteFrom("order_codes").where("code", "=", code).where("release_after", "<", sql<Date>`now()`).execute();
    const reserved = await take(code);
    if (reserved) return reserved;
  }
  throw new OrderCodeExhaustedError();
}

/** How many codes are held now (a year from their order's creation, or until the order is deleted). */
/** The codes held now, as one row (`held`): the dashboard reads it beside its statistics. */
export function heldCodesQuery(db: DB) {
  return db
    .selectFrom("order_codes")
    .select(sql<number>`count(*)::int`.as("held"))
    .where("release_after", ">=", sql<Date>`now()`);
}

export async function countHeldCodes(db: DB): Promise<number> {
  return Number((await heldCodesQuery(db).executeTakeFirstOrThrow()).held);
}
