import { type Kysely, sql } from "kysely";

// Frozen in time. A step opened from the summary's "изменить" link returns to the summary (ADR 060).
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table orders add column wizard_returns boolean not null default false`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table orders drop column wizard_returns`.execute(db);
}
