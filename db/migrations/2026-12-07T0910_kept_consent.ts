import { type Kysely, sql } from "kysely";

// Frozen in time. The consent to the processing of personal data, ticked on the delivery step, is
// kept while that step is edited again (ADR 087): when it was given, null once unticked.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table orders add column data_consent_at timestamptz`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table orders drop column data_consent_at`.execute(db);
}
