import { type Kysely, sql } from "kysely";

// Frozen in time. Payment attempts keep the lines they were created with (so a later attempt for the
// same frozen order charges the same receipt) and the last provider error (an outage leaves the
// attempt open, so a retry reuses its idempotence key). The sandbox provider gets its own status
// store in its own schema, apart from the app's tables, so it behaves like a remote provider.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table payments add column lines jsonb not null default '[]'`.execute(db);
  await sql`alter table payments add column last_error text`.execute(db);
  await sql`create index payments_open_idx on payments(status, created_at) where status in ('created', 'pending')`.execute(db);
  await sql`create schema if not exists sandbox`.execute(db);
  await sql`create table sandbox.payments (
    id text primary key check (id ~ '^sbx_[0-9a-f]{24}$'),
    idempotence_key text not null unique,
    order_id uuid,
    amount bigint not null check (amount > 0),
    currency text not null check (currency in ('rub','eur')),
    description text not null,
    return_url text not null,
    lines jsonb not null default '[]',
    status text not null default 'pending' check (status in ('pending','succeeded','canceled')),
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now()
  )`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop schema if exists sandbox cascade`.execute(db);
  await sql`drop index if exists payments_open_idx`.execute(db);
  await sql`alter table payments drop column if exists last_error`.execute(db);
  await sql`alter table payments drop column if exists lines`.execute(db);
}
