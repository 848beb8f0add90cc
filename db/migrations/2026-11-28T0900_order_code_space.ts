import { type Kysely, sql } from "kysely";

// Frozen in time. Drafts nobody typed into give their order codes back after a day
// (docs/decisions/038-order-code-space.md): housekeeping finds them every minute through this
// index, which holds only such drafts, so the search costs nothing at any size of the orders table.

export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index orders_untouched_draft_idx on orders (updated_at)
    where status = 'draft' and email is null and phone is null and full_name is null and address is null and delivery_comment is null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists orders_untouched_draft_idx`.execute(db);
}
