import { type Kysely, sql } from "kysely";

// Frozen in time. Erasure requests (ADR 079): a clinic asks in its cabinet, an admin approves, and the
// erasure runs in bounded passes (the approval's own, then the scheduled job's) until nothing of the
// address is left but what accounting keeps. The row stays as the record that the request was kept,
// under the pseudonym that replaced the address.
const UP = [
  `create table erasure_requests (
    id uuid primary key default gen_random_uuid(),
    email text not null,
    pseudonym text not null unique,
    requested_at timestamptz not null default now(),
    approved_at timestamptz,
    approved_by text,
    completed_at timestamptz,
    orders_deleted integer not null default 0 check (orders_deleted >= 0),
    orders_anonymised integer not null default 0 check (orders_anonymised >= 0),
    files_deleted integer not null default 0 check (files_deleted >= 0),
    orders_waiting integer not null default 0 check (orders_waiting >= 0),
    kept_until timestamptz
  )`,
  // One open request per address; the job finds approved, unfinished ones; the page lists newest first.
  `create unique index erasure_requests_open_idx on erasure_requests (email) where completed_at is null`,
  `create index erasure_requests_due_idx on erasure_requests (approved_at) where approved_at is not null and completed_at is null`,
  `create index erasure_requests_requested_idx on erasure_requests (requested_at desc, id)`,
];

const DOWN = [`drop table if exists erasure_requests`];

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of UP) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const statement of DOWN) await sql.raw(statement).execute(db);
}
