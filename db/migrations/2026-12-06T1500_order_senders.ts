import { type Kysely, sql } from "kysely";

// Frozen in time. Who started an unpaid order (ADR 082): a digest of the address group and one of the
// signed-in account, so that the order codes and the stored bytes that unpaid orders hold are bounded
// per sender; both are cleared once the order is paid or cancelled. A signed-in client's draft is
// born with the contacts of its last order: `contacts_prefilled` says nobody has saved them yet, and
// such a draft is untouched (it gives its code back after a day) like an anonymous one.
const UP = [
  `alter table orders add column started_from text, add column started_by text, add column contacts_prefilled boolean not null default false`,
  `create index orders_unpaid_started_from_idx on orders (started_from) where status in ('draft', 'pending') and started_from is not null`,
  `create index orders_unpaid_started_by_idx on orders (started_by) where status in ('draft', 'pending') and started_by is not null`,
  `drop index if exists orders_untouched_draft_idx`,
  `create index orders_untouched_draft_idx on orders (updated_at)
    where status = 'draft' and delivery_comment is null and (contacts_prefilled or (email is null and phone is null and full_name is null and address is null))`,
];

const DOWN = [
  `drop index if exists orders_untouched_draft_idx`,
  `create index orders_untouched_draft_idx on orders (updated_at)
    where status = 'draft' and email is null and phone is null and full_name is null and address is null and delivery_comment is null`,
  `drop index if exists orders_unpaid_started_by_idx`,
  `drop index if exists orders_unpaid_started_from_idx`,
  `alter table orders drop column contacts_prefilled, drop column started_by, drop column started_from`,
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of UP) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const statement of DOWN) await sql.raw(statement).execute(db);
}
