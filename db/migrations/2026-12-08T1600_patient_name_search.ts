import { type Kysely, sql } from "kysely";

// Frozen in time. The cabinet's search bounded for a clinic of any size (ADR 098): a clinic's
// patients and orders found by name through one index each, keyed by the clinic's e-mail first.
// - Each patient carries its order's e-mail (`order_email`), set from the order when the patient is
//   added or moved, and followed when the order's e-mail changes (the wizard fills it in on a draft).
// - btree_gin (PostgreSQL ships it, PGlite loads it as an extension) lets one GIN index hold the
//   e-mail beside the name's trigrams: a search reads the clinic's matches, not the lab's.
// Statements run one by one because PGlite's extended protocol accepts one statement per query.

const upStatements: string[] = [
  `create extension if not exists btree_gin`,
  `alter table orders_patients add column order_email text`,
  `update orders_patients p set order_email = o.email from orders o where o.id = p.order_id and o.email is not null`,

  `create function orders_patients_take_order_email() returns trigger language plpgsql as $$
   begin
     new.order_email := (select o.email from orders o where o.id = new.order_id);
     return new;
   end $$`,
  `create trigger orders_patients_take_order_email before insert or update of order_id on orders_patients
     for each row execute function orders_patients_take_order_email()`,

  `create function orders_give_email_to_patients() returns trigger language plpgsql as $$
   begin
     update orders_patients set order_email = new.email where order_id = new.id and order_email is distinct from new.email;
     return null;
   end $$`,
  `create trigger orders_give_email_to_patients after update of email on orders
     for each row when (old.email is distinct from new.email) execute function orders_give_email_to_patients()`,

  `create index orders_patients_email_name_trgm_idx on orders_patients using gin (order_email, patient_name gin_trgm_ops) where order_email is not null`,
  `create index orders_email_full_name_trgm_idx on orders using gin (email, full_name gin_trgm_ops) where email is not null`,
];

const downStatements: string[] = [
  `drop index if exists orders_email_full_name_trgm_idx`,
  `drop index if exists orders_patients_email_name_trgm_idx`,
  `drop trigger if exists orders_give_email_to_patients on orders`,
  `drop function if exists orders_give_email_to_patients()`,
  `drop trigger if exists orders_patients_take_order_email on orders_patients`,
  `drop function if exists orders_patients_take_order_email()`,
  `alter table orders_patients drop column if exists order_email`,
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of upStatements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const statement of downStatements) await sql.raw(statement).execute(db);
}
