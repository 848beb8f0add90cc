import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Expression, sql } from "kysely";
import { partnerBalance, partnerPayouts, referralOrders } from "~/modules/partners/partners.server";
import type { OrderStatus } from "~db/schema";
import { createTestDatabase, type TestDatabase } from "../../support/database";
import { buildOrderIn } from "../../support/builders";

/**
 * What a partner reads about their money on /partner: the payout history (date, quarter, amount, who
 * recorded it) and each referred order's own reward. Every figure is compared with the rows and views
 * in the database, and the rewards with amounts worked out by hand in kopecks.
 */
describe("a partner's payouts and per-order rewards", () => {
  let t: TestDatabase;

  beforeAll(async () => {
    t = await createTestDatabase(4);
  });
  afterAll(async () => {
    await t?.drop();
  });

  async function partner(code: string, email: string, percentage: string | number) {
    return t.db.insertInto("partner_codes").values({ code, user_email: email, reward_percentage: percentage }).returning(["id", "code"]).executeTakeFirstOrThrow();
  }
  async function referral(partnerCodeId: string, email: string) {
    await t.db.insertInto("partner_affiliates").values({ partner_code_id: partnerCodeId, affiliate_email: email }).execute();
  }
  async function order(email: string, status: OrderStatus, total: number, paidAt: Expression<Date> | Date | null, currency: "rub" | "eur" = "rub") {
    const built = await buildOrderIn(t.db, status, { email, currency, market: currency === "rub" ? "domestic" : "international" });
    await t.db
      .updateTable("orders")
      .set({ total_cost: total, ...(paidAt ? { paid_at: paidAt } : {}) })
      .where("id", "=", built.id)
      .execute();
    return built.id;
  }
  const daysAgo = (days: number) => sql<Date>`now() - make_interval(days => ${days})`;
  const allOrders = (partnerCodeId: string) => referralOrders(t.db, partnerCodeId, { search: "", status: null, activity: null, pageSize: 100 });

  it("lists every payout newest first with its date, quarter, amount and the staff member who recorded it", async () => {
    const p = await partner("PAYHIS", "history@partner.ru", 10);
    const other = await partner("PAYOTH", "other@partner.ru", 10);
    await t.db
      .insertInto("partner_payouts")
      .values([
        { partner_code_id: p.id, amount: 280_000, period_year: 2026, period_quarter: 3, created_by: "manager@lab.ru", paid_at: new Date("2026-10-05T09:00:00Z") },
        { partner_code_id: p.id, amount: 150_050, period_year: 2026, period_quarter: 4, created_by: "back-office password (10.0.0.7)", paid_at: new Date("2027-01-12T12:30:00Z") },
        { partner_code_id: p.id, amount: 99_900, period_year: 2025, period_quarter: 4, created_by: null, paid_at: new Date("2026-02-01T08:00:00Z") },
        { partner_code_id: other.id, amount: 1_000, period_year: 2026, period_quarter: 1, created_by: "manager@lab.ru" },
      ])
      .execute();

    const history = await partnerPayouts(t.db, p.id);
    expect(history.map(({ id: _id, ...payout }) => payout)).toEqual([
      { amount: 150_050, year: 2026, quarter: 4, paidAt: "2027-01-12T12:30:00.000Z", by: null },
      { amount: 280_000, year: 2026, quarter: 3, paidAt: "2026-10-05T09:00:00.000Z", by: "manager@lab.ru" },
      { amount: 99_900, year: 2025, quarter: 4, paidAt: "2026-02-01T08:00:00.000Z", by: null },
    ]);
    // The same rows as the table holds, and their sum is what the balance calls paid.
    const rows = await t.db.selectFrom("partner_payouts").select(["id", "amount"]).where("partner_code_id", "=", p.id).execute();
    expect(new Set(history.map((payout) => payout.id))).toEqual(new Set(rows.map((row) => row.id)));
    expect((await partnerBalance(t.db, p.id)).paid).toBe(history.reduce((sum, payout) => sum + payout.amount, 0));
    expect((await partnerPayouts(t.db, other.id)).map((payout) => payout.amount)).toEqual([1_000]);
  });

  it("gives each counted order its own reward, the partner's percentage of its amount, and none to orders that do not count", async () => {
    const p = await partner("REWARD", "reward@partner.ru", "12.5");
    await referral(p.id, "clinic-a@reward.ru");
    const first = await order("clinic-a@reward.ru", "paid", 1_000_000, daysAgo(200)); // 12,5 % of 10 000 ₽ = 1 250 ₽
    const second = await order("clinic-a@reward.ru", "completed", 333_333, daysAgo(100)); // 41 666,625 → 41 667 kopecks
    const pending = await order("clinic-a@reward.ru", "pending", 500_000, null); // not paid: no reward
    const euro = await order("clinic-a@reward.ru", "processing", 20_000, daysAgo(50), "eur"); // euros never earn
    await referral(p.id, "clinic-b@reward.ru");
    const old = await order("clinic-b@reward.ru", "paid", 400_000, daysAgo(500)); // counts: the first of its year
    const late = await order("clinic-b@reward.ru", "shipped", 200_000, daysAgo(10)); // paid after its year ended

    const { orders } = await allOrders(p.id);
    const rewardOf = (id: string) => orders.find((listed) => listed.id === id)?.reward;
    expect(rewardOf(first)).toBe(125_000);
    expect(rewardOf(second)).toBe(41_667);
    expect(rewardOf(old)).toBe(50_000);
    expect(rewardOf(pending)).toBeNull();
    expect(rewardOf(euro)).toBeNull();
    expect(rewardOf(late)).toBeNull();
    // An order has a reward exactly when it is marked as counted.
    for (const listed of orders) expect(listed.reward !== null).toBe(listed.counts);

    // The counted orders are the view's eligible ones, and their rewards add up to what the balance accrued.
    const counted = orders.filter((listed) => listed.counts);
    const eligible = await t.db.selectFrom("partner_affiliate_order_stats").select(sql<string>`sum(eligible_orders_sum)`.as("sum")).where("partner_code_id", "=", p.id).executeTakeFirstOrThrow();
    expect(counted.reduce((sum, listed) => sum + listed.total!, 0)).toBe(Number(eligible.sum));
    const accrued = (await partnerBalance(t.db, p.id)).accrued;
    expect(accrued).toBe(216_667); // 12,5 % of 1 733 333 = 216 666,625
    expect(counted.reduce((sum, listed) => sum + listed.reward!, 0)).toBe(accrued);

    // Each reward is the database's own rounding of that order's amount, so a new percentage moves them all.
    await t.db.updateTable("partner_codes").set({ reward_percentage: 7 }).where("id", "=", p.id).execute();
    const after = await allOrders(p.id);
    expect(after.orders.find((listed) => listed.id === second)?.reward).toBe(23_333); // 23 333,31
    expect(after.orders.find((listed) => listed.id === first)?.reward).toBe(70_000);
  });

  it("rounds each order half up, so the column may exceed the once-rounded balance by under a kopeck an order", async () => {
    const p = await partner("HALVES", "halves@partner.ru", 10);
    await referral(p.id, "clinic@halves.ru");
    await order("clinic@halves.ru", "paid", 105, daysAgo(30)); // 10,5 → 11
    await order("clinic@halves.ru", "paid", 105, daysAgo(20)); // 10,5 → 11
    const { orders } = await allOrders(p.id);
    expect(orders.map((listed) => listed.reward)).toEqual([11, 11]);
    // The balance rounds the sum once: 10 % of 210 = 21 (ADR 015).
    expect((await partnerBalance(t.db, p.id)).accrued).toBe(21);
  });
});
