import { sql } from "kysely";
import type { OrderStatus } from "~db/schema";
import type { DB } from "~/modules/db/db.server";
import { keysetCasts, type KeysetKey, keysetPlan } from "~/modules/db/keyset.server";
import type { Cursor } from "~/modules/http/request/list-query";
import { containsPattern } from "./order-search.server";
import { PAID_SET } from "./status";

/**
 * The orders of partners' referrals (staff-partner-packer §2 "/partner", §4): the partner's own list,
 * searchable and filtered, and the back-office's latest orders of each partner. The economics come
 * from the SQL views (partner_affiliate_order_stats, partner_balance_summary); the one order's share
 * below is the view's rule applied to a row (ADR 015, 064).
 */

/** Statuses a referral's order is listed with: everything past the draft, except cancelled. */
export const LISTED_STATUSES: readonly OrderStatus[] = ["pending", ...PAID_SET];
const PAID_LIST = sql.join(PAID_SET.map((status) => sql.lit(status)));

/**
 * Whether an order of a referral earns a reward (ADR 015): the paid set, roubles, paid before the
 * referral's year ends — the rule the view's eligible sum applies. Written against `o` (orders) and
 * `s` (partner_affiliate_order_stats).
 */
const ORDER_COUNTS = sql<boolean>`coalesce(o.status in (${PAID_LIST}) and o.currency = 'rub' and o.paid_at < s.expires_at, false)`;

/**
 * A counted order's own reward in kopecks: the partner's percentage (`c`, partner_codes) of its amount,
 * half up — partner_balance_summary's formula applied to one order. The balance rounds once per
 * partner, so the column's sum may differ from "Начислено" by under a kopeck per order (ADR 064).
 */
const ORDER_REWARD = sql<string | null>`case when ${ORDER_COUNTS} then round(o.total_cost * c.reward_percentage / 100)::bigint end`;

export interface ReferralOrderFilter {
  search: string;
  status: OrderStatus | null;
  /** Only the orders of active (true) or inactive (false) referrals; null: both. */
  active: boolean | null;
  pageSize: number;
  /** Keyset (ADR 091): the page starts after / ends before the row with these sort values. */
  after?: Cursor | null;
  before?: Cursor | null;
}

/** Newest first, ties by id. */
const REFERRAL_KEYS: KeysetKey[] = [
  { expr: sql`o.created_at`, cast: "timestamptz", descending: true },
  { expr: sql`o.id`, cast: "uuid", descending: false },
];

/** How the list's cursor holds its values (an address without one of them is an old `?page=N` one, ADR 091). */
export const REFERRAL_CURSOR_CASTS = keysetCasts(REFERRAL_KEYS);

/**
 * Orders of the partner's referrals, newest first, one page (after or before the cursor): searchable by name,
 * e-mail and order number, filtered by status and by the referral's activity. `counts` marks an
 * order that earns a reward, `reward` its kopecks.
 */
export async function referralOrderRows(db: DB, partnerCodeId: string, query: ReferralOrderFilter) {
  const plan = keysetPlan(REFERRAL_KEYS, query.after ?? null, query.before ?? null);
  let select = db
    .selectFrom("orders as o")
    .innerJoin("partner_affiliate_order_stats as s", "s.affiliate_email", "o.email")
    .innerJoin("partner_codes as c", "c.id", "s.partner_code_id")
    .where("s.partner_code_id", "=", partnerCodeId)
    .where("o.status", "in", LISTED_STATUSES);
  if (query.status) select = select.where("o.status", "=", query.status);
  if (query.active !== null) select = select.where("s.is_active", "=", query.active);
  if (plan.past) select = select.where(plan.past);
  if (query.search) {
    const pattern = containsPattern(query.search);
    const number = query.search.toLowerCase().replace(/^#|^№/, "").trim();
    select = select.where((eb) =>
      eb.or([
        eb("o.full_name", "ilike", pattern),
        eb("o.email", "ilike", pattern),
        ...(/^[0-9a-f]{1,8}$/.test(number) ? [eb(sql<string>`o.id::text`, "like", `${number}%`)] : []),
      ]),
    );
  }
  let page = select
    .select([
      "o.id",
      "o.status",
      "o.full_name",
      "o.email",
      "o.total_cost",
      "o.currency",
      "o.created_at",
      "o.paid_at",
      "s.is_active",
      "s.expires_at",
      ORDER_COUNTS.as("counts"),
      ORDER_REWARD.as("reward"),
    ])
    .select(plan.select);
  for (const [key, direction] of plan.order) page = page.orderBy(key, direction);
  return plan.page(await page.limit(query.pageSize + 1).execute(), query.pageSize);
}

/**
 * The latest orders of each partner's referrals (drafts aside), at most `perPartner` each, read
 * partner by partner: each referral's latest straight from orders_email_idx, then the partner's latest of those.
 */
export function latestReferralOrders(db: DB, partnerCodeIds: readonly string[], perPartner: number) {
  return db
    .selectFrom("partner_codes as p")
    .where("p.id", "in", [...partnerCodeIds])
    .innerJoinLateral(
      (eb) =>
        eb
          .selectFrom("partner_affiliates as a")
          .innerJoinLateral(
            (inner) =>
              inner
                .selectFrom("orders as o")
                .select(["o.id", "o.status", "o.full_name", "o.email", "o.total_cost", "o.currency", "o.created_at"])
                .whereRef("o.email", "=", "a.affiliate_email")
                .where("o.status", "<>", "draft")
                .orderBy("o.created_at", "desc")
                .orderBy("o.id")
                .limit(perPartner)
                .as("o"),
            (join) => join.onTrue(),
          )
          .whereRef("a.partner_code_id", "=", "p.id")
          .select(["a.partner_code_id", "o.id", "o.status", "o.full_name", "o.email", "o.total_cost", "o.currency", "o.created_at"])
          .orderBy("o.created_at", "desc")
          .orderBy("o.id")
          .limit(perPartner)
          .as("ranked"),
      (join) => join.onTrue(),
    )
    .selectAll("ranked")
    .orderBy("ranked.created_at", "desc")
    .execute();
}
