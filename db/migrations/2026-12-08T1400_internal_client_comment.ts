import { type Kysely, sql } from "kysely";

// Frozen in time. A client's conditions carry two staff comments: `personal_comment`, shown to the
// client on the order's summary (customer side §7), and `internal_comment`, for staff only — never
// read by anything the client sees (ADR 093).
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table client_settings add column internal_comment text`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table client_settings drop column internal_comment`.execute(db);
}
