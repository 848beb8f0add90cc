import { sql } from "kysely";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { codeAt, CODE_SPACE } from "~/modules/orders/order-codes";
import { countHeldCodes, OrderCodeExhaustedError } from "~/modules/orders/order-codes.server";
import type { DB } from "~/modules/db/db.server";
import { openDatabase } from "~/modules/db/db.server";
import { migrateToLatest } from "~db/migrator";
import type { Kysely } from "kysely";
import { createTestDatabase, type TestDatabase } from "../../support/database";
import { buildOrder } from "../../support/builders";

/**
 * The order code space (DESIGN §4.6, ADR 038) on PostgreSQL: creation succeeds whenever a code is
 * free, however few are left and however many creators race for them on separate connections
 * (as separate processes would), and fails cleanly only when none is.
 */

/** Holds every code but `free` (codes reserved for nothing, as a year of orders would hold them). */
async function holdAllBut(db: DB, free: readonly string[]) {
  await db.deleteFrom("order_codes").where("order_id", "is", null).execute();
  const freeSet = new Set(free);
  const codes = Array.from({ length: CODE_SPACE }, (_, n) => codeAt(n)).filter((code) => !freeSet.has(code));
  for (let i = 0; i < codes.length; i += 8192) {
    await db
      .insertInto("order_codes")
      .values(codes.slice(i, i + 8192).map((code) => ({ code })))
      .onConflict((oc) => oc.column("code").doNothing())
      .execute();
  }
}

describe("order codes on PostgreSQL", () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase(24);
  });
  afterAll(async () => t.drop());
  beforeEach(async () => {
    await t.db.deleteFrom("orders").execute();
    await t.db.deleteFrom("order_codes").execute();
  });

  it("gives each of 40 concurrent creators one of the last 40 free codes, then refuses the next one cleanly", { timeout: 60_000 }, async () => {
    const free = Array.from({ length: 40 }, (_, i) => codeAt(i * 1637 + 11));
    await holdAllBut(t.db, free);
    const orders = await Promise.all(free.map(() => buildOrder(t.db)));
    expect(new Set(orders.map((order) => order.code))).toEqual(new Set(free));
    for (const order of orders) expect(order.id.startsWith(order.code)).toBe(true);
    expect(await countHeldCodes(t.db)).toBe(CODE_SPACE);
    await expect(buildOrder(t.db)).rejects.toBeInstanceOf(OrderCodeExhaustedError);
    // Nothing half-made of the refused order.
    expect(await t.db.selectFrom("orders").select(sql<number>`count(*)::int`.as("n")).executeTakeFirstOrThrow()).toEqual({ n: 40 });
  });

  it("takes a code whose year has passed, and only that one, when it is the last", async () => {
    const expired = "c0de";
    await holdAllBut(t.db, []);
    await t.db.updateTable("order_codes").set({ release_after: sql<Date>`now() - interval '1 day'` }).where("code", "=", expired).execute();
    expect(await countHeldCodes(t.db)).toBe(CODE_SPACE - 1);
    const order = await buildOrder(t.db);
    expect(order.code).toBe(expired);
    const row = await t.db.selectFrom("order_codes").selectAll().where("code", "=", expired).executeTakeFirstOrThrow();
    expect(row.order_id).toBe(order.id);
    expect(row.release_after.getTime()).toBeGreaterThan(Date.now() + 360 * 86_400_000);
  });

  it("spreads codes over the space instead of filling it from the start", async () => {
    const orders = await Promise.all(Array.from({ length: 30 }, () => buildOrder(t.db)));
    const positions = orders.map((order) => Number.parseInt(order.code, 16));
    expect(Math.max(...positions)).toBeGreaterThan(CODE_SPACE / 2);
    expect(Math.min(...positions)).toBeLessThan(CODE_SPACE / 2);
  });
});

describe("order codes on PGlite (the embedded database)", () => {
  let db: DB;
  beforeAll(async () => {
    db = await openDatabase({ kind: "pglite", dir: "memory://" });
    await migrateToLatest(db as Kysely<any>);
  }, 60_000);
  afterAll(async () => db.destroy());

  it("finds the last free code and refuses cleanly when none is left", { timeout: 60_000 }, async () => {
    await holdAllBut(db, ["7e57"]);
    const order = await buildOrder(db);
    expect(order.code).toBe("7e57");
    expect(await countHeldCodes(db)).toBe(CODE_SPACE);
    await expect(buildOrder(db)).rejects.toBeInstanceOf(OrderCodeExhaustedError);
  });
});
