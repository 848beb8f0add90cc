import { type Kysely, sql } from "kysely";

// Frozen in time. Status changes that a client may be told about (paid, shipped, completed) are sent
// once; `notified_at` records that the change was handled (sent, or nothing to send).
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table order_status_history add column notified_at timestamptz`.execute(db);
  // Older history needs no mail.
  await sql`update order_status_history set notified_at = created_at`.execute(db);
  await sql`create index order_status_history_unnotified_idx on order_status_history(created_at) where notified_at is null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists order_status_history_unnotified_idx`.execute(db);
  await sql`alter table order_status_history drop column if exists notified_at`.execute(db);
}
