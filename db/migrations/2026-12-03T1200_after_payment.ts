import { type Kysely, sql } from "kysely";

// Frozen in time. After the payment (ADR 070): the provider's receipt of a payment, the doctor's
// "parcel received" mark, the one sign-in link the payment page sends, and the cabinet's tabs.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table payments add column receipt jsonb`.execute(db);
  await sql`alter table orders add column parcel_received_at timestamptz`.execute(db);
  await sql`alter table orders add column parcel_received_by text`.execute(db);
  await sql`alter table orders add column cabinet_link_sent_at timestamptz`.execute(db);
  // The cabinet's tabs: one clinic's orders of one status, newest first, counted and listed from the index.
  await sql`create index orders_email_status_idx on orders (email, status, created_at desc, id)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists orders_email_status_idx`.execute(db);
  await sql`alter table orders drop column cabinet_link_sent_at`.execute(db);
  await sql`alter table orders drop column parcel_received_by`.execute(db);
  await sql`alter table orders drop column parcel_received_at`.execute(db);
  await sql`alter table payments drop column receipt`.execute(db);
}
