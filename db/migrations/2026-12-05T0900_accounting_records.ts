import { type Kysely, sql } from "kysely";

// Frozen in time. The accounting records' period (ADR 074): the scheduled job deletes anonymised
// orders, payments whose order is gone and partners' payouts once their period after the end of the
// year has passed. Each pass finds its batch through an index that holds only what it can take.
const UP = [
  `create index orders_accounting_due_idx on orders (updated_at) where anonymised_at is not null`,
  `create index payments_without_order_idx on payments (updated_at) where order_id is null`,
  `create index partner_payouts_paid_at_idx on partner_payouts (paid_at)`,
];

const DOWN = [
  `drop index if exists partner_payouts_paid_at_idx`,
  `drop index if exists payments_without_order_idx`,
  `drop index if exists orders_accounting_due_idx`,
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of UP) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const statement of DOWN) await sql.raw(statement).execute(db);
}
