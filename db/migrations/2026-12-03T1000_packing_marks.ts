import { type Kysely, sql } from "kysely";

// Frozen in time. The packer's "Упаковано" (ADR 068): one mark per order — who packed it, when, and
// the status it had and moved to (none when no status fits). The file-server queue's page reads an
// order's entries by order and status (ADR 068): the order index gains the status and the type.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table order_packings (
    id bigint generated always as identity primary key,
    order_id uuid not null references orders(id) on delete cascade,
    actor text not null check (btrim(actor) <> ''),
    from_status text not null,
    to_status text,
    created_at timestamptz not null default now()
  )`.execute(db);
  await sql`create unique index order_packings_order_idx on order_packings(order_id)`.execute(db);
  await sql`create index ftp_uploads_queue_order_status_idx on ftp_uploads_queue(order_id, status) include (file_type)`.execute(db);
  await sql`drop index if exists ftp_uploads_queue_order_idx`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`create index if not exists ftp_uploads_queue_order_idx on ftp_uploads_queue(order_id)`.execute(db);
  await sql`drop index if exists ftp_uploads_queue_order_status_idx`.execute(db);
  await sql`drop table if exists order_packings`.execute(db);
}
