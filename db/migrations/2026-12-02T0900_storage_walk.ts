import { type Kysely, sql } from "kysely";

// Frozen in time. The storage page reads its folders from the orders; the bucket is walked in the
// background, a few list calls a run, and what no order knows is kept as found trash (ADR 063).
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table storage_walk (
    id smallint primary key default 1 check (id = 1),
    cursor text,
    pass_started_at timestamptz,
    pass_objects bigint not null default 0,
    pass_bytes bigint not null default 0,
    pass_folders integer not null default 0,
    pass_last_folder text,
    finished_at timestamptz,
    objects bigint,
    bytes bigint,
    folders integer
  )`.execute(db);
  await sql`create table storage_trash (
    key text primary key,
    folder text not null,
    size bigint not null check (size >= 0),
    modified_at timestamptz not null,
    reason text not null check (reason in ('order_missing', 'unlisted', 'cancelled', 'abandoned_draft', 'delivered')),
    found_at timestamptz not null default now()
  )`.execute(db);
  await sql`create index storage_trash_folder_idx on storage_trash (folder collate "C", key)`.execute(db);
  // Set when every file of the order's folder was deleted: the folder is gone, the lists stay as a record.
  await sql`alter table orders add column storage_removed_at timestamptz`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table orders drop column storage_removed_at`.execute(db);
  await sql`drop table storage_trash`.execute(db);
  await sql`drop table storage_walk`.execute(db);
}
