import { type Kysely, sql } from "kysely";

// Frozen in time. Staff's corrections of a file's declared jaw and step (ADR 058): who changed
// which file of an order from what to what, and when. The file's record keeps only the new values.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table order_file_corrections (
    id bigint generated always as identity primary key,
    order_id uuid not null references orders(id) on delete cascade,
    patient_id uuid not null references orders_patients(id) on delete cascade,
    file_type text not null check (file_type in ('matrix','aligners','retainer')),
    storage_path text not null check (btrim(storage_path) <> ''),
    original_name text not null check (btrim(original_name) <> ''),
    from_jaw text not null check (from_jaw in ('upper','lower')),
    from_step integer,
    from_guessed boolean not null,
    to_jaw text not null check (to_jaw in ('upper','lower')),
    to_step integer check (to_step between 1 and 999),
    actor text not null check (btrim(actor) <> ''),
    created_at timestamptz not null default now()
  )`.execute(db);
  await sql`create index order_file_corrections_order_idx on order_file_corrections(order_id, created_at)`.execute(db);
  await sql`create index order_file_corrections_patient_idx on order_file_corrections(patient_id)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table if exists order_file_corrections`.execute(db);
}
