import { type Kysely, sql } from "kysely";

// Frozen in time. Every bag scanned (ADR 103): each accepted scan of a bag code on an order — who, when —
// so two packers on one order see the same ticks and a reload keeps them. "Упаковано" with bags not
// scanned records why, and how many were missing, on the order's packing mark.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table bag_scans (
    id bigint generated always as identity primary key,
    order_id uuid not null references orders(id) on delete cascade,
    code text not null check (code ~ '^[0-9]{19}$'),
    actor text not null check (btrim(actor) <> ''),
    created_at timestamptz not null default now()
  )`.execute(db);
  await sql`create index bag_scans_order_idx on bag_scans(order_id, code)`.execute(db);
  await sql`alter table order_packings add column missing_bags integer not null default 0 check (missing_bags >= 0),
    add column missing_reason text check (char_length(missing_reason) <= 500)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table order_packings drop column if exists missing_reason, drop column if exists missing_bags`.execute(db);
  await sql`drop table if exists bag_scans`.execute(db);
}
