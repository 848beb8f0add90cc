import { sql } from "kysely";
import type { DB } from "~/modules/db/db.server";
import { keysetCasts, type KeysetKey, keysetPlan } from "~/modules/db/keyset.server";
import type { Cursor } from "~/modules/http/request/list-query";
import { loadSection, sectionData, sectionFailure, type SectionFailure } from "~/modules/http/answers/section.server";
import { containsPattern } from "~/modules/orders/order-search.server";
import { shortOrderNumber } from "~/modules/orders/orders.server";
import { latestReferralOrders } from "~/modules/orders/partner-orders.server";
import type { PayoutInput } from "./forms";

/**
 * The back-office partner overview (staff-partner-packer §2 "/backoffice/affiliates"): every code with
 * its balance from partner_balance_summary, its quarterly payouts, its referrals from
 * partner_affiliate_order_stats and its referrals' orders. Payouts and the percentage are the only
 * things staff change here.
 */

export const ORDERS_PER_PARTNER = 50;

/** Oldest first, ties by code (a code is unique). */
const PARTNER_KEYS: KeysetKey[] = [
  { expr: sql`c.created_at`, cast: "timestamptz", descending: false },
  { expr: sql`c.code`, cast: "text", descending: false },
];

/** How the list's cursor holds its values (an address without one of them is an old `?page=N` one, ADR 091). */
export const PARTNER_CURSOR_CASTS = keysetCasts(PARTNER_KEYS);

export interface PartnerListQuery {
  search: string;
  pageSize: number;
  /** Keyset (ADR 091): the page starts after / ends before the partner with these sort values. */
  after: Cursor | null;
  before: Cursor | null;
}

/** The codes of one page of partners, oldest first, in the order to read them, with their sort values (`plan.select`). */
function partnersPageQuery(db: DB, options: PartnerListQuery, plan: ReturnType<typeof keysetPlan>) {
  let page = db.selectFrom("partner_codes as c").select(["c.id", "c.code", "c.user_email", "c.user_name", "c.contact_email", "c.contact_phone", "c.offer_accepted_at", "c.reward_percentage", "c.created_at"]);
  if (options.search) {
    const pattern = containsPattern(options.search);
    page = page.where((eb) => eb.or([eb("c.code", "ilike", pattern), eb("c.user_name", "ilike", pattern), eb("c.user_email", "ilike", pattern), eb("c.contact_email", "ilike", pattern)]));
  }
  if (plan.past) page = page.where(plan.past);
  let ordered = page.select(plan.select);
  for (const [key, direction] of plan.order) ordered = ordered.orderBy(key, direction);
  return ordered.limit(options.pageSize + 1);
}

/** One page of the partners' codes alone, with whether more follow and its cursors (an old `?page=N` address's walk, ADR 091). */
export async function partnerCodesPage(db: DB, options: PartnerListQuery) {
  const plan = keysetPlan(PARTNER_KEYS, options.after, options.before);
  return plan.page(await partnersPageQuery(db, options, plan).execute(), options.pageSize);
}

/** One page of the partners, oldest first (after or before the cursor), with whether more follow and the page's cursors. */
export async function listPartners(db: DB, options: PartnerListQuery) {
  const plan = keysetPlan(PARTNER_KEYS, options.after, options.before);
  // The page's partners first; then each one's balance and referral figures from the views, which a
  // filter by partner reaches before any order is read (ADR 042).
  const rows = await db
    .selectFrom(partnersPageQuery(db, options, plan).as("p"))
    .leftJoinLateral(
      (eb) => eb.selectFrom("partner_balance_summary as b").select(["b.accrued_total", "b.paid_total", "b.due_total"]).whereRef("b.partner_code_id", "=", "p.id").as("b"),
      (join) => join.onTrue(),
    )
    .leftJoinLateral(
      (eb) =>
        eb
          .selectFrom("partner_affiliate_order_stats as s")
          .select([sql<number>`coalesce(sum(s.orders_sum), 0)::bigint`.as("referrals_sum"), sql<number>`count(*)::int`.as("referrals_count")])
          .whereRef("s.partner_code_id", "=", "p.id")
          .as("r"),
      (join) => join.onTrue(),
    )
    .selectAll("p")
    .select(["b.accrued_total", "b.paid_total", "b.due_total", "r.referrals_sum", "r.referrals_count"])
    .orderBy("p.created_at", plan.backwards ? "desc" : "asc")
    .orderBy("p.code", plan.backwards ? "desc" : "asc")
    .execute();
  const { rows: listed, hasMore, cursors } = plan.page(rows, options.pageSize);
  return {
    hasMore,
    cursors,
    partners: listed.map((row) => ({
      id: row.id,
      code: row.code,
      email: row.user_email,
      name: row.user_name,
      contactEmail: row.contact_email,
      contactPhone: row.contact_phone,
      offerAcceptedAt: row.offer_accepted_at ? new Date(row.offer_accepted_at).toISOString() : null,
      percentage: Number(row.reward_percentage).toFixed(2),
      balance: {
        accrued: Number(row.accrued_total ?? 0),
        paid: Number(row.paid_total ?? 0),
        due: Number(row.due_total ?? 0),
      },
      referralsSum: Number(row.referrals_sum ?? 0),
      referralsCount: Number(row.referrals_count ?? 0),
    })),
  };
}

/** Payouts, referrals and the latest orders of the listed partners. */
export async function partnerDetails(db: DB, partnerCodeIds: string[]) {
  if (partnerCodeIds.length === 0) return new Map<string, PartnerDetails>();
  const [payouts, referrals, ordersSection] = await Promise.all([
    db
      .selectFrom("partner_payouts")
      .select(["id", "partner_code_id", "amount", "period_year", "period_quarter", "note", "created_by", "paid_at"])
      .where("partner_code_id", "in", partnerCodeIds)
      .orderBy("period_year", "desc")
      .orderBy("period_quarter", "desc")
      .orderBy("paid_at", "desc")
      .execute(),
    db
      .selectFrom("partner_affiliate_order_stats")
      .selectAll()
      .where("partner_code_id", "in", partnerCodeIds)
      .orderBy("first_paid_at", (ob) => ob.desc().nullsFirst())
      .orderBy("affiliate_email")
      .execute(),
    // The latest orders of each partner's referrals (drafts aside), at most ORDERS_PER_PARTNER each,
    // read partner by partner; when they fail to load, each card says so in place (ADR 026).
    loadSection("back-office: loading the orders of affiliates", { message: "failures.affiliateOrders" }, () => latestReferralOrders(db, partnerCodeIds, ORDERS_PER_PARTNER)),
  ]);
  const orders = sectionData(ordersSection, []);
  const ordersFailure = sectionFailure(ordersSection);
  const details = new Map<string, PartnerDetails>(partnerCodeIds.map((id) => [id, { payouts: [], referrals: [], orders: [], ordersFailure }]));
  for (const payout of payouts) {
    details.get(payout.partner_code_id)!.payouts.push({
      id: payout.id,
      amount: Number(payout.amount),
      year: payout.period_year,
      quarter: payout.period_quarter,
      note: payout.note,
      createdBy: payout.created_by,
      paidAt: new Date(payout.paid_at).toISOString(),
    });
  }
  for (const referral of referrals) {
    details.get(referral.partner_code_id)!.referrals.push({
      email: referral.affiliate_email,
      firstPaidAt: referral.first_paid_at ? new Date(referral.first_paid_at).toISOString() : null,
      expiresAt: referral.expires_at ? new Date(referral.expires_at).toISOString() : null,
      ordersCount: Number(referral.orders_count),
      ordersSum: Number(referral.orders_sum),
      eligibleSum: Number(referral.eligible_orders_sum),
      active: referral.is_active,
    });
  }
  for (const order of orders) {
    details.get(order.partner_code_id)!.orders.push({
      id: order.id,
      number: shortOrderNumber(order.id),
      status: order.status,
      client: order.full_name,
      email: order.email,
      total: order.total_cost === null ? null : Number(order.total_cost),
      currency: order.currency,
      createdAt: new Date(order.created_at).toISOString(),
    });
  }
  return details;
}

export interface PartnerDetails {
  payouts: Array<{
    id: string;
    amount: number;
    year: number;
    quarter: number;
    note: string | null;
    createdBy: string | null;
    paidAt: string;
  }>;
  referrals: Array<{
    email: string;
    firstPaidAt: string | null;
    expiresAt: string | null;
    ordersCount: number;
    ordersSum: number;
    eligibleSum: number;
    active: boolean;
  }>;
  orders: Array<{
    id: string;
    number: string;
    status: string;
    client: string | null;
    email: string | null;
    total: number | null;
    currency: "rub" | "eur";
    createdAt: string;
  }>;
  ordersFailure: SectionFailure | null;
}

export async function partnerCodeById(db: DB, partnerCodeId: string) {
  return db.selectFrom("partner_codes").select(["id", "code", "user_email", "reward_percentage"]).where("id", "=", partnerCodeId).executeTakeFirst();
}

export async function addPayout(db: DB, partnerCodeId: string, payout: PayoutInput, createdBy: string) {
  return db
    .insertInto("partner_payouts")
    .values({
      partner_code_id: partnerCodeId,
      amount: payout.amount,
      currency: "rub",
      period_year: payout.year,
      period_quarter: payout.quarter,
      note: payout.note,
      created_by: createdBy,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
}

/** Deletes one payout of this partner; false when there was none. */
export async function deletePayout(db: DB, partnerCodeId: string, payoutId: string): Promise<boolean> {
  const result = await db.deleteFrom("partner_payouts").where("id", "=", payoutId).where("partner_code_id", "=", partnerCodeId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Sets the reward percentage (a decimal string, 0 < p ≤ 100); false when the partner is gone. */
export async function setRewardPercentage(db: DB, partnerCodeId: string, percentage: string): Promise<boolean> {
  const result = await db.updateTable("partner_codes").set({ reward_percentage: percentage }).where("id", "=", partnerCodeId).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
