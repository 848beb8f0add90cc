import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Expression, sql } from "kysely";
import { changeOrderStatus } from "~/modules/orders/orders.server";
import { ensurePartnerCode } from "~/modules/partners/partners.server";
import { linkPartnerAtHandOff } from "~/modules/orders/customers.server";
import type { OrderStatus } from "~db/schema";
import { createTestDatabase, type TestDatabase } from "../../support/database";
import { buildOrder, buildOrderIn, staff } from "../../support/builders";

/**
 * Partner economics live in SQL (partner_affiliate_order_stats, partner_balance_summary). Every figure
 * below is worked out by hand in kopecks: the reward is the partner's percentage of the rouble orders
 * of the paid set (paid, processing, shipped, completed) paid within a year of the referral's first
 * paid-set order, rounded once per partner, half up; due = accrued − payouts.
 */
describe("partner economics in SQL", () => {
  let t: TestDatabase;

  beforeAll(async () => {
    t = await createTestDatabase(4);
  });
  afterAll(async () => {
    await t?.drop();
  });

  async function partner(code: string, email: string, percentage: string | number = 10) {
    return t.db.insertInto("partner_codes").values({ code, user_email: email, reward_percentage: percentage }).returning(["id", "code"]).executeTakeFirstOrThrow();
  }
  async function referral(partnerCodeId: string, email: string) {
    await t.db.insertInto("partner_affiliates").values({ partner_code_id: partnerCodeId, affiliate_email: email }).execute();
  }
  /** An order of `email` walked to `status`, then given its amount and payment time. */
  async function order(email: string, status: OrderStatus, total: number, paidAt: Expression<Date> | Date | null, currency: "rub" | "eur" = "rub") {
    const built = await buildOrderIn(t.db, status, { email, currency, market: currency === "rub" ? "domestic" : "international" });
    await t.db
      .updateTable("orders")
      .set({ total_cost: total, ...(paidAt ? { paid_at: paidAt } : {}) })
      .where("id", "=", built.id)
      .execute();
    return built;
  }
  const at = (iso: string) => new Date(iso);
  const daysAgo = (days: number) => sql<Date>`now() - make_interval(days => ${days})`;
  const balance = (partnerCodeId: string) =>
    t.db.selectFrom("partner_balance_summary").select(["accrued_total", "paid_total", "due_total"]).where("partner_code_id", "=", partnerCodeId).executeTakeFirstOrThrow();
  const stats = (email: string) => t.db.selectFrom("partner_affiliate_order_stats").selectAll().where("affiliate_email", "=", email).executeTakeFirstOrThrow();

  it("counts a referral's rouble paid-set orders for one year from its first payment, to the kopeck", async () => {
    const p = await partner("ALPHAB", "alpha@partner.ru", 10);
    // Referral A: first paid 2024-03-01 10:00 UTC; its year ends 2025-03-01 10:00 UTC.
    await referral(p.id, "a@clinic.ru");
    await order("a@clinic.ru", "paid", 1_250_000, at("2024-03-01T10:00:00Z")); // counts (the first)
    await order("a@clinic.ru", "completed", 333_333, at("2024-09-01T10:00:00Z")); // counts
    await order("a@clinic.ru", "shipped", 500_000, at("2025-03-01T09:59:59Z")); // counts: one second before the year ends
    await order("a@clinic.ru", "paid", 100_001, at("2025-03-01T10:00:00Z")); // exactly at the end: does not count
    await order("a@clinic.ru", "processing", 777_777, at("2026-03-01T10:00:00Z")); // a year later: does not count
    await order("a@clinic.ru", "pending", 999_999, null); // not paid
    await order("a@clinic.ru", "cancelled", 444_444, null); // cancelled
    await order("a@clinic.ru", "paid", 15_000, at("2024-04-01T10:00:00Z"), "eur"); // euros never add to roubles
    // Referral B: active, first paid ten days ago.
    await referral(p.id, "b@clinic.ru");
    await order("b@clinic.ru", "paid", 1_250_000, daysAgo(10));
    await order("b@clinic.ru", "completed", 12_345, daysAgo(1));

    const a = await stats("a@clinic.ru");
    expect(a.first_paid_at).toEqual(at("2024-03-01T10:00:00Z"));
    expect(a.expires_at).toEqual(at("2025-03-01T10:00:00Z"));
    expect(a.orders_count).toBe(5);
    expect(a.orders_sum).toBe(1_250_000 + 333_333 + 500_000 + 100_001 + 777_777); // 2 961 111
    expect(a.eligible_orders_sum).toBe(2_083_333); // 1 250 000 + 333 333 + 500 000
    expect(a.is_active).toBe(false);
    const b = await stats("b@clinic.ru");
    expect([b.orders_count, b.orders_sum, b.eligible_orders_sum, b.is_active]).toEqual([2, 1_262_345, 1_262_345, true]);

    // 10 % of 3 345 678 = 334 567.8 → 334 568 kopecks.
    expect(await balance(p.id)).toEqual({ accrued_total: 334_568, paid_total: 0, due_total: 334_568 });

    // Two payouts: 1 000 ₽ and 345,68 ₽ → due 2 000 ₽.
    await t.db
      .insertInto("partner_payouts")
      .values([
        { partner_code_id: p.id, amount: 100_000, period_year: 2024, period_quarter: 2, note: "акт № 1" },
        { partner_code_id: p.id, amount: 34_568, period_year: 2025, period_quarter: 1, note: null },
      ])
      .execute();
    expect(await balance(p.id)).toEqual({ accrued_total: 334_568, paid_total: 134_568, due_total: 200_000 });

    // A new percentage applies to every counted order; payouts stay: 12.5 % of 3 345 678 = 418 209.75 → 418 210.
    await t.db.updateTable("partner_codes").set({ reward_percentage: "12.50" }).where("id", "=", p.id).execute();
    expect(await balance(p.id)).toEqual({ accrued_total: 418_210, paid_total: 134_568, due_total: 283_642 });
  });

  it("rounds half a kopeck up, once per partner", async () => {
    const p = await partner("BRAVOC", "bravo@partner.ru", 10);
    await referral(p.id, "c@clinic.ru");
    await order("c@clinic.ru", "paid", 1_005, daysAgo(3)); // 100.5 → 101
    expect(await balance(p.id)).toEqual({ accrued_total: 101, paid_total: 0, due_total: 101 });

    const q = await partner("CHARLY", "charlie@partner.ru", "7.5");
    await referral(q.id, "d1@clinic.ru");
    await referral(q.id, "d2@clinic.ru");
    await order("d1@clinic.ru", "paid", 1_000_006, daysAgo(5)); // alone 75 000.45 → would be 75 000
    await order("d2@clinic.ru", "paid", 1_000_006, daysAgo(4)); // alone 75 000.45 → would be 75 000
    // One rounding of the sum: 7.5 % of 2 000 012 = 150 000.9 → 150 001 (rounding per order would give 150 000).
    expect(await balance(q.id)).toEqual({ accrued_total: 150_001, paid_total: 0, due_total: 150_001 });
  });

  it("stops counting an order once it is cancelled, leaving a negative due after a payout", async () => {
    const p = await partner("DELTAD", "delta@partner.ru", 10);
    await referral(p.id, "e@clinic.ru");
    const paid = await order("e@clinic.ru", "paid", 2_000_000, daysAgo(20));
    await t.db.insertInto("partner_payouts").values({ partner_code_id: p.id, amount: 200_000, period_year: 2026, period_quarter: 4 }).execute();
    expect(await balance(p.id)).toEqual({ accrued_total: 200_000, paid_total: 200_000, due_total: 0 });
    await changeOrderStatus(t.db, paid.id, "cancelled", staff, { note: "возврат клиенту" });
    expect(await balance(p.id)).toEqual({ accrued_total: 0, paid_total: 200_000, due_total: -200_000 });
  });

  it("keeps a referral active for exactly one year from its first payment", async () => {
    const p = await partner("ECHOEE", "echo@partner.ru", 10);
    await referral(p.id, "young@clinic.ru");
    await referral(p.id, "old@clinic.ru");
    await referral(p.id, "new@clinic.ru");
    await order("young@clinic.ru", "paid", 10_000, sql<Date>`now() - interval '1 year' + interval '1 minute'`);
    await order("old@clinic.ru", "paid", 10_000, sql<Date>`now() - interval '1 year' - interval '1 minute'`);
    expect((await stats("young@clinic.ru")).is_active).toBe(true);
    expect((await stats("old@clinic.ru")).is_active).toBe(false);
    // Not paid yet: its year has not started, so its next order will count.
    const fresh = await stats("new@clinic.ru");
    expect([fresh.first_paid_at, fresh.expires_at, fresh.orders_count, fresh.orders_sum, fresh.is_active]).toEqual([null, null, 0, 0, true]);
    // Both paid orders count: each was paid at the start of its own year.
    expect(await balance(p.id)).toEqual({ accrued_total: 2_000, paid_total: 0, due_total: 2_000 });
    // A partner without referrals has a zero balance row.
    const lonely = await partner("FOXTRT", "foxtrot@partner.ru");
    expect(await balance(lonely.id)).toEqual({ accrued_total: 0, paid_total: 0, due_total: 0 });
  });

  it("refuses self-referral in the linkage and in SQL", async () => {
    const p = await partner("GOLFGG", "golf@partner.ru", 10);
    const own = await buildOrder(t.db, { email: "golf@partner.ru" });
    expect(await linkPartnerAtHandOff(t.db, own, "golfgg")).toBe(false);
    expect(await t.db.selectFrom("partner_affiliates").select("id").where("affiliate_email", "=", "golf@partner.ru").execute()).toEqual([]);
    await expect(t.db.insertInto("partner_affiliates").values({ partner_code_id: p.id, affiliate_email: "golf@partner.ru" }).execute()).rejects.toThrow(
      /cannot refer their own e-mail/,
    );

    // Another clinic is linked once, at its first hand-off, and never again.
    const first = await buildOrder(t.db, { email: "hotel@clinic.ru" });
    expect(await linkPartnerAtHandOff(t.db, first, "GOLFGG")).toBe(true);
    await changeOrderStatus(t.db, first.id, "pending", { kind: "customer", label: "hotel@clinic.ru" });
    const second = await buildOrder(t.db, { email: "hotel@clinic.ru" });
    expect(await linkPartnerAtHandOff(t.db, second, "GOLFGG")).toBe(false);
    const links = await t.db.selectFrom("partner_affiliates").select(["partner_code_id", "first_order_id"]).where("affiliate_email", "=", "hotel@clinic.ru").execute();
    expect(links).toEqual([{ partner_code_id: p.id, first_order_id: first.id }]);
  });

  it("accepts rouble payouts only, with a positive amount and a quarter from 1 to 4", async () => {
    const p = await partner("INDIAI", "india@partner.ru");
    const insert = (values: { amount: number; period_quarter: number; currency?: "rub" | "eur" }) =>
      t.db.insertInto("partner_payouts").values({ partner_code_id: p.id, period_year: 2026, ...values }).execute();
    await expect(insert({ amount: 0, period_quarter: 1 })).rejects.toThrow();
    await expect(insert({ amount: 100, period_quarter: 5 })).rejects.toThrow();
    await expect(insert({ amount: 100, period_quarter: 1, currency: "eur" })).rejects.toThrow(/partner_payouts_rub_only/);
    await insert({ amount: 100, period_quarter: 1 });
  });
});

describe("partner codes", () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase(4);
  });
  afterAll(async () => {
    await t?.drop();
  });

  /** Returns the letters of the given words one by one. */
  const scripted = (...words: string[]) => {
    const letters = words.join("");
    let i = 0;
    return () => letters.charCodeAt(i++ % letters.length) - 65;
  };

  it("are drawn once per e-mail, skipping route words and codes already taken", async () => {
    await t.db.insertInto("partner_codes").values({ code: "TAKENN", user_email: "someone@partner.ru" }).execute();
    const code = await ensurePartnerCode(t.db, " New@Partner.ru ", scripted("PACKER", "TAKENN", "ZULUZZ"));
    expect(code.code).toBe("ZULUZZ");
    expect(code.user_email).toBe("new@partner.ru");
    expect(Number(code.reward_percentage)).toBe(10);
    const again = await ensurePartnerCode(t.db, "new@partner.ru", scripted("YANKEE"));
    expect(again.id).toBe(code.id);
  });

  it("keep the first code when two first visits race", async () => {
    const results = await Promise.all(Array.from({ length: 5 }, (_, i) => ensurePartnerCode(t.db, "race@partner.ru", scripted(["AAAAAA", "BBBBBB", "CCCCCC", "DDDDDD", "EEEEEE"][i]!))));
    expect(new Set(results.map((result) => result.id)).size).toBe(1);
    const rows = await t.db.selectFrom("partner_codes").select("code").where("user_email", "=", "race@partner.ru").execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.code).toBe(results[0]!.code);
  });
});
