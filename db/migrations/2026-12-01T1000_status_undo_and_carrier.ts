import { type Kysely, sql } from "kysely";

// Frozen in time. The carrier beside an order's tracking number, and a status change that undoes
// another (ADR 062).
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table orders add column carrier text`.execute(db);
  await sql`alter table order_status_history add column carrier text`.execute(db);
  await sql`alter table order_status_history add column undoes bigint references order_status_history(id) on delete set null`.execute(db);
  // Deleting an order's history looks up the changes that undid its rows.
  await sql`create index order_status_history_undoes on order_status_history (undoes) where undoes is not null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists order_status_history_undoes`.execute(db);
  await sql`alter table order_status_history drop column undoes`.execute(db);
  await sql`alter table order_status_history drop column carrier`.execute(db);
  await sql`alter table orders drop column carrier`.execute(db);
}
