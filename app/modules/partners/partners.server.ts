import { randomInt } from "node:crypto";
import { sql } from "kysely";
import type { DB } from "~/modules/db/db.server";
import type { Cursor } from "~/modules/http/request/list-query";
import { shortOrderNumber } from "~/modules/orders/orders.server";
import { normalizeEmail } from "~/modules/validation/email";
import { referralOrderRows } from "~/modules/orders/partner-orders.server";
import { drawPartnerCode } from "./codes";
import type { ContactsInput } from "./forms";
import type { ActivityFilter, ReferralStatusFilter } from "./page-helpers";

/**
 * The partner side (staff-partner-packer §2 "/partner", §4 "Partner code"): one code per e-mail,
 * drawn when the user asks for it (a post, ADR 083); the economics come from the SQL views (partner_balance_summary,
 * partner_affiliate_order_stats), never from application arithmetic.
 */

const CODE_COLUMNS = [
  "id",
  "code",
  "user_email",
  "user_name",
  "contact_email",
  "contact_phone",
  "offer_accepted_at",
  "reward_percentage",
  "created_at",
] as const;

export async function findPartnerCode(db: DB, email: string) {
  return db.selectFrom("partner_codes").select(CODE_COLUMNS).where("user_email", "=", normalizeEmail(email)!).executeTakeFirst();
}

/**
 * The user's code, created when first asked for. `user_email` is unique, so there is never a second
 * code per e-mail: two first visits at once both end with the code that was inserted first
 * (the spec's "duplicates are deleted, keeping the first"). A drawn code that is taken is redrawn.
 */
export async function ensurePartnerCode(db: DB, email: string, randomIndex: (n: number) => number = randomInt) {
  const owner = normalizeEmail(email)!;
  for (let attempt = 0; attempt < 20; attempt++) {
    const existing = await findPartnerCode(db, owner);
    if (existing) return existing;
    const inserted = await db
      .insertInto("partner_codes")
      .values({ code: drawPartnerCode(randomIndex), user_email: owner })
      .onConflict((oc) => oc.doNothing())
      .returning(CODE_COLUMNS)
      .executeTakeFirst();
    if (inserted) return inserted;
  }
  throw new Error("no free partner code after 20 draws");
}

export async function savePartnerName(db: DB, partnerCodeId: string, name: string): Promise<void> {
  await db.updateTable("partner_codes").set({ user_name: name }).where("id", "=", partnerCodeId).executeTakeFirstOrThrow();
}

/** Contacts; the offer's acceptance time is set once, at the first acceptance, and kept afterwards. */
export async function savePartnerContacts(db: DB, partnerCodeId: string, input: ContactsInput): Promise<void> {
  await db
    .updateTable("partner_codes")
    .set({
      contact_email: input.contactEmail,
      contact_phone: input.contactPhone,
      offer_accepted_at: input.acceptOffer ? sql<Date>`coalesce(offer_accepted_at, now())` : sql<Date>`offer_accepted_at`,
    })
    .where("id", "=", partnerCodeId)
    .executeTakeFirstOrThrow();
}

export interface Balance {
  accrued: number;
  paid: number;
  due: number;
}

export async function partnerBalance(db: DB, partnerCodeId: string): Promise<Balance> {
  const row = await db
    .selectFrom("partner_balance_summary")
    .select(["accrued_total", "paid_total", "due_total"])
    .where("partner_code_id", "=", partnerCodeId)
    .executeTakeFirst();
  return { accrued: Number(row?.accrued_total ?? 0), paid: Number(row?.paid_total ?? 0), due: Number(row?.due_total ?? 0) };
}

export async function referralCounts(db: DB, partnerCodeId: string): Promise<{ total: number; active: number }> {
  const row = await db
    .selectFrom("partner_affiliate_order_stats")
    .select([sql<number>`count(*)::int`.as("total"), sql<number>`(count(*) filter (where is_active))::int`.as("active")])
    .where("partner_code_id", "=", partnerCodeId)
    .executeTakeFirstOrThrow();
  return { total: Number(row.total), active: Number(row.active) };
}

export interface ReferralOrderQuery {
  search: string;
  status: ReferralStatusFilter | null;
  activity: ActivityFilter | null;
  pageSize: number;
  after?: Cursor | null;
  before?: Cursor | null;
}

/**
 * Orders of the partner's referrals, newest first: searchable by name, e-mail and order number,
 * filtered by status and by the referral's activity. `counts` marks an order that earns a reward.
 */
export async function referralOrders(db: DB, partnerCodeId: string, query: ReferralOrderQuery) {
  const { rows, hasMore, cursors } = await referralOrderRows(db, partnerCodeId, {
    search: query.search,
    status: query.status,
    active: query.activity ? query.activity === "active" : null,
    pageSize: query.pageSize,
    after: query.after ?? null,
    before: query.before ?? null,
  });
  return {
    hasMore,
    cursors,
    orders: rows.map((row) => ({
      id: row.id,
      number: shortOrderNumber(row.id),
      status: row.status,
      client: row.full_name,
      email: row.email,
      total: row.total_cost === null ? null : Number(row.total_cost),
      currency: row.currency,
      createdAt: row.created_at.toISOString(),
      active: row.is_active,
      expiresAt: row.expires_at ? new Date(row.expires_at).toISOString() : null,
      counts: Boolean(row.counts),
      /** Kopecks this order earns the partner; null when it does not count. */
      reward: row.reward === null ? null : Number(row.reward),
    })),
  };
}

/**
 * Who recorded a payout, as the partner sees it: a staff member's e-mail, or null when it was the shared
 * back-office password (whose label carries an IP address that stays with staff).
 */
export function payoutActor(createdBy: string | null): string | null {
  return createdBy && createdBy.includes("@") ? createdBy : null;
}

/** The partner's payouts, newest first (spec §7: partner_payouts by partner_code_id, newest paid_at first). */
export async function partnerPayouts(db: DB, partnerCodeId: string) {
  const rows = await db
    .selectFrom("partner_payouts")
    .select(["id", "amount", "period_year", "period_quarter", "created_by", "paid_at"])
    .where("partner_code_id", "=", partnerCodeId)
    .orderBy("paid_at", "desc")
    .orderBy("id")
    .execute();
  return rows.map((row) => ({
    id: row.id,
    amount: Number(row.amount),
    year: row.period_year,
    quarter: row.period_quarter,
    paidAt: new Date(row.paid_at).toISOString(),
    by: payoutActor(row.created_by),
  }));
}
