import { type Kysely, sql } from "kysely";

// Frozen in time. The list kit (ADR 067): a staff member's remembered choices on the orders
// dashboard (cards or table, statistics folded), kept per user rather than in a cookie the privacy
// notice does not name; and the indexes behind the dashboard's keyset sorts by total and by status
// (in the statuses' own order), so a late page costs what the first does.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table staff_preferences (
    user_id uuid primary key references users(id) on delete cascade,
    orders_view text not null default 'cards' check (orders_view in ('cards','table')),
    statistics_folded boolean not null default false,
    updated_at timestamptz not null default now()
  )`.execute(db);
  await sql`create index orders_total_key_idx on orders ((coalesce(total_cost, 0)), id)`.execute(
    db
  );
  await sql`create index orders_status_total_key_idx on orders (status, (coalesce(total_cost, 0)), id)`.execute(
    db
  );
  await sql`create index orders_status_rank_idx on orders ((case status when 'draft' then 0 when 'pending' then 1 when 'paid' then 2 when 'processing' then 3 when 'shipped' then 4 when 'completed' then 5 else 6 end), created_at, id)`.execute(
    db
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists orders_status_rank_idx`.execute(db);
  await sql`drop index if exists orders_status_total_key_idx`.execute(db);
  await sql`drop index if exists orders_total_key_idx`.execute(db);
  await sql`drop table if exists staff_preferences`.execute(db);
}
