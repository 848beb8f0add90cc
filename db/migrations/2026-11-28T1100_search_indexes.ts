import { type Kysely, sql } from "kysely";

// Frozen in time. Searches and figures bounded by what a page shows (docs/decisions/042-bounded-searches-and-figures.md):
// - the order code and the id prefix are found by an index on orders.code;
// - substrings of names, e-mails, phones and patient names by trigram indexes (pg_trgm, which
//   PostgreSQL ships and PGlite loads as an extension);
// - the clients screen pages a summary per e-mail that triggers keep up to date;
// - the partner views compute one referral's figures from that referral's orders (LATERAL), so a
//   filter by partner reaches partner_affiliates before any order is read.
// Statements run one by one because PGlite's extended protocol accepts one statement per query.

const PAID_SET = `'paid','processing','shipped','completed'`;

const upStatements: string[] = [
  `create extension if not exists pg_trgm`,

  // The order code is the id's first four characters: a code, or a longer id prefix, is one index probe.
  `create index orders_code_idx on orders (code text_pattern_ops)`,
  `create index orders_full_name_trgm_idx on orders using gin (full_name gin_trgm_ops)`,
  `create index orders_email_trgm_idx on orders using gin (email gin_trgm_ops)`,
  `create index orders_phone_trgm_idx on orders using gin (phone gin_trgm_ops)`,
  `create index orders_patients_name_trgm_idx on orders_patients using gin (patient_name gin_trgm_ops)`,
  // One client's paid orders by payment time: the clients screen's 30-day sums and the partner
  // figures read them without visiting the table.
  `create index orders_email_paid_idx on orders (email, paid_at) include (status, currency, total_cost) where paid_at is not null`,

  // One row per client e-mail, kept by the triggers below in the transaction that changes an order.
  `create table client_summaries (
    email text primary key,
    orders_count integer not null check (orders_count >= 0),
    paid_orders_count integer not null check (paid_orders_count >= 0),
    last_order_at timestamptz not null
  )`,
  `create index client_summaries_last_order_idx on client_summaries (last_order_at desc, email)`,
  `create index client_summaries_paid_last_order_idx on client_summaries (last_order_at desc, email) where paid_orders_count > 0`,
  `create index client_summaries_email_trgm_idx on client_summaries using gin (email gin_trgm_ops)`,
  `insert into client_summaries (email, orders_count, paid_orders_count, last_order_at)
     select email, count(*), count(*) filter (where status in (${PAID_SET})), max(created_at)
       from orders where email is not null group by email`,

  `create function client_summaries_follow_orders() returns trigger language plpgsql as $$
   begin
     if tg_op <> 'INSERT' and old.email is not null then
       update client_summaries
          set orders_count = orders_count - 1,
              paid_orders_count = paid_orders_count - (old.status in (${PAID_SET}))::int
        where email = old.email;
     end if;
     if tg_op <> 'DELETE' and new.email is not null then
       insert into client_summaries as s (email, orders_count, paid_orders_count, last_order_at)
       values (new.email, 1, (new.status in (${PAID_SET}))::int, new.created_at)
       on conflict (email) do update
          set orders_count = s.orders_count + 1,
              paid_orders_count = s.paid_orders_count + excluded.paid_orders_count,
              last_order_at = greatest(s.last_order_at, excluded.last_order_at);
     end if;
     -- An order that left its e-mail (deleted, moved to another e-mail, re-dated) may have been the
     -- latest: the newest remaining one is one probe of orders_email_idx. Row triggers run after the
     -- whole statement, so a statement removing all of an e-mail's orders finds none here while the
     -- count still goes down; the row goes when the count reaches zero.
     if tg_op <> 'INSERT' and old.email is not null
        and (tg_op = 'DELETE' or old.email is distinct from new.email or old.created_at is distinct from new.created_at) then
       delete from client_summaries where email = old.email and orders_count = 0;
       update client_summaries
          set last_order_at = coalesce((select max(created_at) from orders where email = old.email), last_order_at)
        where email = old.email;
     end if;
     return null;
   end $$`,
  `create trigger client_summaries_follow_orders after insert or delete on orders
     for each row execute function client_summaries_follow_orders()`,
  // The wizard writes the e-mail on every step: only a real change touches the summary (and locks its row).
  `create trigger client_summaries_follow_order_changes after update of email, status, created_at on orders
     for each row when (old.email is distinct from new.email or old.status is distinct from new.status or old.created_at is distinct from new.created_at)
     execute function client_summaries_follow_orders()`,

  `drop view if exists partner_balance_summary`,
  `drop view if exists partner_affiliate_order_stats`,

  // The same figures as 2026-11-24T0900_partner_economics, each referral's from its own paid orders
  // (orders_email_paid_idx): a filter on partner_code_id selects the referrals first.
  `create view partner_affiliate_order_stats as
    select a.partner_code_id, a.affiliate_email, f.first_paid_at,
           f.first_paid_at + interval '1 year' as expires_at,
           s.orders_count, s.orders_sum, s.eligible_orders_sum,
           (f.first_paid_at is null or now() < f.first_paid_at + interval '1 year') as is_active
      from partner_affiliates a
      cross join lateral (
        select min(o.paid_at) as first_paid_at
          from orders o
         where o.email = a.affiliate_email and o.paid_at is not null and o.status in (${PAID_SET})
      ) f
      cross join lateral (
        select count(*)::int as orders_count,
               coalesce(sum(o.total_cost), 0)::bigint as orders_sum,
               coalesce(sum(o.total_cost) filter (where o.paid_at < f.first_paid_at + interval '1 year'), 0)::bigint as eligible_orders_sum
          from orders o
         where o.email = a.affiliate_email and o.paid_at is not null and o.status in (${PAID_SET}) and o.currency = 'rub'
      ) s`,

  `create view partner_balance_summary as
    select c.id as partner_code_id,
           coalesce(round(s.eligible * c.reward_percentage / 100), 0)::bigint as accrued_total,
           coalesce(pp.paid, 0)::bigint as paid_total,
           (coalesce(round(s.eligible * c.reward_percentage / 100), 0) - coalesce(pp.paid, 0))::bigint as due_total
      from partner_codes c
      cross join lateral (
        select sum(st.eligible_orders_sum) as eligible from partner_affiliate_order_stats st where st.partner_code_id = c.id
      ) s
      cross join lateral (
        select sum(p.amount) as paid from partner_payouts p where p.partner_code_id = c.id
      ) pp`,
];

const downStatements: string[] = [
  `drop view if exists partner_balance_summary`,
  `drop view if exists partner_affiliate_order_stats`,
  // The views as 2026-11-24T0900_partner_economics created them.
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
  `create view partner_balance_summary as
    select c.id as partner_code_id,
           coalesce(round(s.eligible * c.reward_percentage / 100), 0)::bigint as accrued_total,
           coalesce(pp.paid, 0)::bigint as paid_total,
           (coalesce(round(s.eligible * c.reward_percentage / 100), 0) - coalesce(pp.paid, 0))::bigint as due_total
      from partner_codes c
      left join (select partner_code_id, sum(eligible_orders_sum) as eligible
                   from partner_affiliate_order_stats group by 1) s on s.partner_code_id = c.id
      left join (select partner_code_id, sum(amount) as paid from partner_payouts group by 1) pp on pp.partner_code_id = c.id`,

  `drop trigger if exists client_summaries_follow_order_changes on orders`,
  `drop trigger if exists client_summaries_follow_orders on orders`,
  `drop function if exists client_summaries_follow_orders()`,
  `drop table if exists client_summaries`,
  `drop index if exists orders_email_paid_idx`,
  `drop index if exists orders_patients_name_trgm_idx`,
  `drop index if exists orders_phone_trgm_idx`,
  `drop index if exists orders_email_trgm_idx`,
  `drop index if exists orders_full_name_trgm_idx`,
  `drop index if exists orders_code_idx`,
  `drop extension if exists pg_trgm`,
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of upStatements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const statement of downStatements) await sql.raw(statement).execute(db);
}
