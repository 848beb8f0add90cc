import { type Kysely, sql } from "kysely";

// Frozen in time. How many files of each kind a patient has in the order, kept on the row by the
// database as the lists are written, so that a list of orders reads three integers instead of
// expanding every file list (bench/RESULTS.md, "Pages fast when made"; ADR 081). The rule is
// `filesOf`'s (app/modules/orders/files.server.ts): entries with a storage path, an original name and
// a URL, each a non-empty string, and not set aside by a declined step (ADR 087). A change of that
// rule is a new migration that replaces the function and adds the columns again.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create function order_file_count(files jsonb) returns int language sql immutable parallel safe as $$
      select count(*)::int
      from jsonb_array_elements(case when jsonb_typeof(files) = 'array' then files else '[]'::jsonb end) as file
      where jsonb_typeof(file -> 'storagePath') = 'string' and file ->> 'storagePath' <> ''
        and jsonb_typeof(file -> 'originalName') = 'string' and file ->> 'originalName' <> ''
        and jsonb_typeof(file -> 'url') = 'string' and file ->> 'url' <> ''
        and not coalesce(file -> 'setAside' = 'true'::jsonb, false)
    $$`.execute(db);
  await sql`
    alter table orders_patients
      add column matrix_file_count int generated always as (order_file_count(matrix_files_info)) stored,
      add column aligner_file_count int generated always as (order_file_count(aligner_files_info)) stored,
      add column retainer_file_count int generated always as (order_file_count(retainer_files_info)) stored`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table orders_patients drop column matrix_file_count, drop column aligner_file_count, drop column retainer_file_count`.execute(db);
  await sql`drop function order_file_count(jsonb)`.execute(db);
}
