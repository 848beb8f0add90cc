import { type Kysely, sql } from "kysely";

// Frozen in time. Bank-transfer invoices of the domestic market (ADR 072): a clinic paying as a
// company asks for a "Счёт на оплату" on a priced, unpaid order; the invoice keeps what it printed
// (the lab's requisites, the buyer, the lines, the total) under a number of its own; staff mark it
// paid when the transfer arrives (who and when), and the payment is then a row in `payments` like a
// card's, of provider 'invoice', so the cabinet, the mails and the data export read it as one.
const UP = [
  `create sequence invoice_numbers`,
  `create table invoices (
    id uuid primary key default gen_random_uuid(),
    number bigint not null unique default nextval('invoice_numbers'),
    order_id uuid not null references orders(id) on delete cascade,
    client_company text not null check (length(client_company) between 1 and 200),
    client_inn text not null check (client_inn ~ '^([0-9]{10}|[0-9]{12})$'),
    supplier jsonb not null,
    lines jsonb not null,
    total bigint not null check (total > 0),
    currency text not null check (currency in ('rub')),
    created_at timestamptz not null default now(),
    paid_at timestamptz,
    paid_by text,
    payment_id uuid references payments(id) on delete set null,
    check ((paid_at is null) = (paid_by is null))
  )`,
  `alter sequence invoice_numbers owned by invoices.number`,
  // An order's invoices, newest last; the payment recorded for one (every foreign key has its index).
  `create index invoices_order_idx on invoices (order_id, created_at)`,
  `create index invoices_payment_idx on invoices (payment_id) where payment_id is not null`,
  `alter table payments drop constraint payments_provider_check`,
  `alter table payments add constraint payments_provider_check check (provider in ('sandbox','yookassa','stripe','invoice'))`,
];

const DOWN = [
  `drop table if exists invoices`,
  `drop sequence if exists invoice_numbers`,
  // Transfers recorded as payments have no provider to go back to.
  `delete from payments where provider = 'invoice'`,
  `alter table payments drop constraint payments_provider_check`,
  `alter table payments add constraint payments_provider_check check (provider in ('sandbox','yookassa','stripe'))`,
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of UP) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const statement of DOWN) await sql.raw(statement).execute(db);
}
