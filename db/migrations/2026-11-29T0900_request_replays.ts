import { type Kysely, sql } from "kysely";

// Frozen in time. The answers to enhanced posts, by the key the page sent with them, so that a post
// sent again after a lost answer gets the first answer back instead of acting twice (ADR 046).
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table request_replays (
      key text primary key,
      target text not null,
      status integer,
      headers jsonb,
      body bytea,
      created_at timestamptz not null default now()
    )
  `.execute(db);
  await sql`create index request_replays_created_at on request_replays (created_at)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table if exists request_replays`.execute(db);
}
