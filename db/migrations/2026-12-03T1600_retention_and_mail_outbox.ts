import { type Kysely, sql } from "kysely";

// Frozen in time. Retention enforced by the scheduled job (ADR 074): an order whose personal data was
// removed says when; the job finds its next batches through partial indexes that hold only the orders
// still to do. Status mails from an outbox (ADR 075): a change is marked notified only once the mail
// server took its mail; until then it carries its attempts, when it is due again (a claim's lease, or
// the backoff after a failure) and, after the last attempt, when it failed and why.
const UP = [
  `alter table orders add column anonymised_at timestamptz`,
  `create index orders_personal_data_due_idx on orders (updated_at) where status <> 'draft' and anonymised_at is null`,
  `create index orders_models_due_idx on orders (updated_at) where status in ('shipped', 'completed', 'cancelled') and storage_removed_at is null`,
  `create index payment_events_received_idx on payment_events (received_at)`,
  `alter table order_status_history add column mail_attempts integer not null default 0 check (mail_attempts >= 0)`,
  `alter table order_status_history add column mail_due_at timestamptz`,
  `alter table order_status_history add column mail_failed_at timestamptz`,
  `alter table order_status_history add column mail_error text`,
  `create index order_status_history_mail_failed_idx on order_status_history (mail_failed_at desc) where mail_failed_at is not null`,
];

const DOWN = [
  `drop index if exists order_status_history_mail_failed_idx`,
  `alter table order_status_history drop column if exists mail_error`,
  `alter table order_status_history drop column if exists mail_failed_at`,
  `alter table order_status_history drop column if exists mail_due_at`,
  `alter table order_status_history drop column if exists mail_attempts`,
  `drop index if exists payment_events_received_idx`,
  `drop index if exists orders_models_due_idx`,
  `drop index if exists orders_personal_data_due_idx`,
  `alter table orders drop column if exists anonymised_at`,
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of UP) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const statement of DOWN) await sql.raw(statement).execute(db);
}
