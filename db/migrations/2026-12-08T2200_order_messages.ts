import { type Kysely, sql } from "kysely";

// Frozen in time. An order's thread between the clinic and the lab (ADR 104): its messages and the
// lab's own notes (`lab_only`, never read by anything the clinic sees), and one small row per order
// that says who the thread waits for and how many messages each side has not opened, kept up to
// date when a message is written — the work list and the cabinet count by it, never by the messages.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table order_messages (
      id bigint generated always as identity primary key,
      order_id uuid not null references orders(id) on delete cascade,
      author_side text not null check (author_side in ('clinic', 'lab')),
      author text not null,
      body text not null,
      lab_only boolean not null default false,
      asks boolean not null default false,
      assigned_to text,
      resolved_at timestamptz,
      resolved_by text,
      created_at timestamptz not null default now(),
      check (not lab_only or author_side = 'lab')
    )`.execute(db);
  await sql`create index order_messages_order_idx on order_messages (order_id, id)`.execute(db);
  await sql`create index order_messages_author_idx on order_messages (author, created_at)`.execute(db);
  await sql`
    create table order_threads (
      order_id uuid primary key references orders(id) on delete cascade,
      waiting_on text check (waiting_on in ('clinic', 'lab')),
      waiting_since timestamptz,
      clinic_unread integer not null default 0,
      lab_unread integer not null default 0,
      last_message_at timestamptz not null default now(),
      check ((waiting_on is null) = (waiting_since is null))
    )`.execute(db);
  await sql`create index order_threads_waiting_idx on order_threads (waiting_on, waiting_since) where waiting_on is not null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table order_threads`.execute(db);
  await sql`drop table order_messages`.execute(db);
}
