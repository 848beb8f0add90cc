import { type Kysely, sql } from "kysely";

// Frozen in time. Partner economics (DESIGN §4.2, §4.29; docs/decisions/015-partners.md):
// - rewards are roubles: only rouble orders accrue and payouts are rouble payments, so the views
//   never add kopecks to euro cents;
// - a referral that has not paid yet is active (its year starts with its first paid-set order);
// - a partner can never be their own referral, even past the application.
// Statements run one by one because PGlite's extended protocol accepts one statement per query.

const PAID_SET = `'paid','processing','shipped','completed'`;

const upStatements: string[] = [
  `drop view if exists partner_balance_summary`,
  `drop view if exists partner_affiliate_order_stats`,

  // One row per referral. first_paid_at: the earliest paid-set order of that e-mail, in any currency
  // (the client's year of activity); the sums count rouble orders only; eligible = paid before the
  // year ends (half-open: an order paid exactly at expires_at no longer counts).
  `create view partner_affiliate_order_stats as
    with paid as (
      select a.partner_code_id, a.affiliate_email, o.id, o.total_cost, o.currency, o.paid_at
        from partner_affiliates a
        join orders o on o.email = a.affiliate_email
       where o.status in (${PAID_SET}) and o.paid_at is not null
    ), firsts as (
      select partner_code_id, affiliate_email, min(paid_at) as first_paid_at from paid group by 1, 2
    )
    select a.partner_code_id, a.affiliate_email, f.first_paid_at,
           f.first_paid_at + interval '1 year' as expires_at,
           count(p.id) filter (where p.currency = 'rub')::int as orders_count,
           coalesce(sum(p.total_cost) filter (where p.currency = 'rub'), 0)::bigint as orders_sum,
           coalesce(sum(p.total_cost) filter (where p.currency = 'rub' and p.paid_at < f.first_paid_at + interval '1 year'), 0)::bigint as eligible_orders_sum,
           (f.first_paid_at is null or now() < f.first_paid_at + interval '1 year') as is_active
      from partner_affiliates a
      left join firsts f on f.partner_code_id = a.partner_code_id and f.affiliate_email = a.affiliate_email
      left join paid p on p.partner_code_id = a.partner_code_id and p.affiliate_email = a.affiliate_email
     group by a.partner_code_id, a.affiliate_email, f.first_paid_at`,

  // One row per partner code. The reward is the partner's percentage of the eligible sum, rounded
  // once, half away from zero (half up for these non-negative sums), to whole kopecks.
  `create view partner_balance_summary as
    select c.id as partner_code_id,
           coalesce(round(s.eligible * c.reward_percentage / 100), 0)::bigint as accrued_total,
           coalesce(pp.paid, 0)::bigint as paid_total,
           (coalesce(round(s.eligible * c.reward_percentage / 100), 0) - coalesce(pp.paid, 0))::bigint as due_total
      from partner_codes c
      left join (select partner_code_id, sum(eligible_orders_sum) as eligible
                   from partner_affiliate_order_stats group by 1) s on s.partner_code_id = c.id
      left join (select partner_code_id, sum(amount) as paid from partner_payouts group by 1) pp on pp.partner_code_id = c.id`,

  `alter table partner_payouts add constraint partner_payouts_rub_only check (currency = 'rub')`,

  `create function partner_affiliates_not_self() returns trigger language plpgsql as $$
   begin
     if exists (select 1 from partner_codes c where c.id = new.partner_code_id and c.user_email = new.affiliate_email) then
       raise exception 'a partner cannot refer their own e-mail (%)', new.affiliate_email using errcode = '23514';
     end if;
     return new;
   end $$`,
  `create trigger partner_affiliates_not_self before insert or update on partner_affiliates
     for each row execute function partner_affiliates_not_self()`,
];

const downStatements: string[] = [
  `drop trigger if exists partner_affiliates_not_self on partner_affiliates`,
  `drop function if exists partner_affiliates_not_self()`,
  `alter table partner_payouts drop constraint if exists partner_payouts_rub_only`,
  `drop view if exists partner_balance_summary`,
  `drop view if exists partner_affiliate_order_stats`,
  // The views as the initial migration created them.
  `create view partner_affiliate_order_stats as
    with paid as (
      select a.partner_code_id, a.affiliate_email, o.id, o.total_cost, coalesce(o.paid_at, o.created_at) as paid_at
        from partner_affiliates a
        join orders o on o.email = a.affiliate_email
       where o.status in (${PAID_SET})
    ), firsts as (
      select partner_code_id, affiliate_email, min(paid_at) as first_paid_at from paid group by 1, 2
    )
    select a.partner_code_id, a.affiliate_email, f.first_paid_at,
           f.first_paid_at + interval '1 year' as expires_at,
           count(p.id)::int as orders_count,
           coalesce(sum(p.total_cost), 0)::bigint as orders_sum,
           coalesce(sum(p.total_cost) filter (where p.paid_at < f.first_paid_at + interval '1 year'), 0)::bigint as eligible_orders_sum,
           coalesce(now() < f.first_paid_at + interval '1 year', false) as is_active
      from partner_affiliates a
      left join firsts f on f.partner_code_id = a.partner_code_id and f.affiliate_email = a.affiliate_email
      left join paid p on p.partner_code_id = a.partner_code_id and p.affiliate_email = a.affiliate_email
     group by a.partner_code_id, a.affiliate_email, f.first_paid_at`,
  `create view partner_balance_summary as
    select c.id as partner_code_id,
           coalesce(round(s.eligible * c.reward_percentage / 100), 0)::bigint as accrued_total,
           coalesce(pp.paid, 0)::bigint as paid_total,
           (coalesce(round(s.eligible * c.reward_percentage / 100), 0) - coalesce(pp.paid, 0))::bigint as due_total
      from partner_codes c
      left join (select partner_code_id, sum(eligible_orders_sum) as eligible
                   from partner_affiliate_order_stats group by 1) s on s.partner_code_id = c.id
      left join (select partner_code_id, sum(amount) as paid from partner_payouts group by 1) pp on pp.partner_code_id = c.id`,
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of upStatements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const statement of downStatements) await sql.raw(statement).execute(db);
}
