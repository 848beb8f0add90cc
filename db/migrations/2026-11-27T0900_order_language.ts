import { type Kysely, sql } from "kysely";

// Frozen in time. The language the client used when the order was created, so the order's mails
// speak it (ADR 024). Older orders have none: their mails use the market's language.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table orders add column language text check (language in ('ru', 'en', 'de', 'es', 'fr', 'it'))`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table orders drop column if exists language`.execute(db);
}
