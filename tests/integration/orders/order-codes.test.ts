import { sql } from "kysely";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { purgeUntouchedDrafts, reuseUntouchedDraft, UNTOUCHED_DRAFT_HOURS } from "~/modules/orders/drafts.server";
import { codeAt, CODE_SPACE } from "~/modules/orders/order-codes";
import { countHeldCodes, OrderCodeExhaustedError } from "~/modules/orders/order-codes.server";
import { loadStatistics } from "~/modules/backoffice/dashboard.server";
import type { DB } from "~/modules/db/db.server";
import { openDatabase } from "~/modules/db/db.server";
import { addPatient } from "~/modules/orders/patients.server";
import { updateDraft } from "~/modules/orders/drafts.server";
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

const anonymousDraft = (db: DB) => buildOrder(db, { email: null, fullName: null, phone: null, address: null });

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
    // The dashboard's statistics say so with nothing paid yet (the held count comes with no window).
    const statistics = await loadStatistics(t.db);
    expect(statistics.codes).toMatchObject({ held: CODE_SPACE, percent: 100, warning: true });
    expect(statistics.count.current).toBe(0);
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

  it("gives a browser back its untouched draft of the same market, and nothing that holds data", async () => {
    const untouched = await anonymousDraft(t.db);
    const typedInto = await anonymousDraft(t.db);
    await updateDraft(t.db, typedInto.id, { phone: "+7 900 000-00-00" });
    const withPatient = await buildOrder(t.db);
    await updateDraft(t.db, withPatient.id, { email: null, phone: null, full_name: null, address: null });
    await addPatient(t.db, withPatient, "Смирнова Е.");
    const international = await buildOrder(t.db, { market: "international", currency: "eur", email: null, fullName: null, phone: null, address: null });

    const fields = { wizardStep: 2, language: "ru" as const };
    expect(await reuseUntouchedDraft(t.db, [typedInto.id, withPatient.id, international.id], "domestic", fields)).toBeUndefined();
    expect(await reuseUntouchedDraft(t.db, [], "domestic", fields)).toBeUndefined();
    const reused = await reuseUntouchedDraft(t.db, [typedInto.id, untouched.id, withPatient.id, international.id], "domestic", fields);
    expect(reused?.id).toBe(untouched.id);
    expect(reused?.wizard_step).toBe(2);
    expect((await reuseUntouchedDraft(t.db, [international.id], "international", { ...fields, language: "en", email: "dr@clinic.eu" }))?.email).toBe("dr@clinic.eu");
  });

  it(`deletes drafts untouched for ${UNTOUCHED_DRAFT_HOURS} hours with their codes, and keeps every other order`, async () => {
    const old = sql<Date>`now() - make_interval(hours => ${UNTOUCHED_DRAFT_HOURS + 1})`;
    const stale = await anonymousDraft(t.db);
    const fresh = await anonymousDraft(t.db);
    const typedInto = await anonymousDraft(t.db);
    await updateDraft(t.db, typedInto.id, { delivery_comment: "у подъезда" });
    const withPatient = await anonymousDraft(t.db);
    await addPatient(t.db, withPatient, "Смирнова Е.");
    const handedOff = await anonymousDraft(t.db);
    await t.db.updateTable("orders").set({ status: "cancelled" }).where("id", "=", handedOff.id).execute();
    await t.db.updateTable("orders").set({ updated_at: old }).where("id", "in", [stale.id, typedInto.id, withPatient.id, handedOff.id]).execute();

    expect(await purgeUntouchedDrafts(t.db)).toBe(1);
    const left = await t.db.selectFrom("orders").select("id").execute();
    expect(left.map((row) => row.id).sort()).toEqual([fresh.id, typedInto.id, withPatient.id, handedOff.id].sort());
    expect(await t.db.selectFrom("order_codes").select("code").where("code", "=", stale.code).execute()).toEqual([]);
    expect(await t.db.selectFrom("order_status_history").select("id").where("order_id", "=", stale.id).execute()).toEqual([]);
    expect(await purgeUntouchedDrafts(t.db)).toBe(0);
  });

  it("finds untouched drafts for housekeeping through their own index", async () => {
    for (let i = 0; i < 3; i++) await anonymousDraft(t.db);
    await sql`analyze orders`.execute(t.db);
    // With a handful of rows a scan of the table is cheaper; what matters is that an index of drafts serves
    // the query (this one, or the abandoned drafts' index of ADR 041: both hold drafts only, by update).
    const plan = await t.db.transaction().execute(async (trx) => {
      await sql`set local enable_seqscan = off`.execute(trx);
      return sql<{ "QUERY PLAN": string }>`explain select id from orders
        where status = 'draft' and email is null and phone is null and full_name is null and address is null and delivery_comment is null
        and updated_at < now() - interval '1 day' order by updated_at limit 1000`.execute(trx);
    });
    expect(plan.rows.map((row) => row["QUERY PLAN"]).join("\n")).toMatch(/Index Scan using orders_(untouched_draft|draft_updated)_idx/);
  });
});

describe("order codes on PGlite (the embedded database)", () => {
  let db: DB;
  beforeAll(async () => {
    db = await openDatabase({ kind: "pglite", dir: "memory://" });
    await migrateToLatest(db as Kysely<any>);
    // Every migration on an in-memory PGlite: over a minute on a loaded two-core machine.
  }, 180_000);
  afterAll(async () => db.destroy());

  it("finds the last free code and refuses cleanly when none is left", { timeout: 60_000 }, async () => {
    await holdAllBut(db, ["7e57"]);
    const order = await buildOrder(db);
    expect(order.code).toBe("7e57");
    expect(await countHeldCodes(db)).toBe(CODE_SPACE);
    await expect(buildOrder(db)).rejects.toBeInstanceOf(OrderCodeExhaustedError);
  });
});
