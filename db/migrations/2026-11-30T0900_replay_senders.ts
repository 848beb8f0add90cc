import { type Kysely, sql } from "kysely";

// Frozen in time. A kept answer belongs to the sender of its first request (a hash of who it is,
// never a cookie's value), and each sender and address group keeps only a few (ADR 056).
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table request_replays add column sender text not null default ''`.execute(db);
  await sql`alter table request_replays add column address_group text not null default ''`.execute(db);
  await sql`create index request_replays_sender on request_replays (sender, created_at)`.execute(db);
  await sql`create index request_replays_address_group on request_replays (address_group, created_at)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists request_replays_address_group`.execute(db);
  await sql`drop index if exists request_replays_sender`.execute(db);
  await sql`alter table request_replays drop column address_group`.execute(db);
  await sql`alter table request_replays drop column sender`.execute(db);
}
