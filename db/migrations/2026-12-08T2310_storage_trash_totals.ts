import { type Kysely, sql } from "kysely";

// Frozen in time. The storage page's trash totals kept as the trash changes (ADR 106): one row, moved
// by statement triggers on storage_trash with the statement's rows (transition tables), so a page
// reads two numbers instead of counting and summing every trash row (486,535 at five years).

const statements: string[] = [
  `create table storage_trash_totals (
     id integer primary key check (id = 1),
     files bigint not null check (files >= 0),
     bytes bigint not null check (bytes >= 0)
   )`,
  `insert into storage_trash_totals (id, files, bytes) select 1, count(*), coalesce(sum(size), 0) from storage_trash`,
  `create function storage_trash_totals_inserted() returns trigger language plpgsql as $$
   begin
     update storage_trash_totals
        set files = files + (select count(*) from inserted), bytes = bytes + (select coalesce(sum(size), 0) from inserted)
      where id = 1;
     return null;
   end $$`,
  `create trigger storage_trash_totals_inserted after insert on storage_trash
     referencing new table as inserted for each statement execute function storage_trash_totals_inserted()`,
  `create function storage_trash_totals_deleted() returns trigger language plpgsql as $$
   begin
     update storage_trash_totals
        set files = files - (select count(*) from deleted), bytes = bytes - (select coalesce(sum(size), 0) from deleted)
      where id = 1;
     return null;
   end $$`,
  `create trigger storage_trash_totals_deleted after delete on storage_trash
     referencing old table as deleted for each statement execute function storage_trash_totals_deleted()`,
  `create function storage_trash_totals_updated() returns trigger language plpgsql as $$
   begin
     update storage_trash_totals
        set bytes = bytes + (select coalesce(sum(size), 0) from after_rows) - (select coalesce(sum(size), 0) from before_rows)
      where id = 1;
     return null;
   end $$`,
  `create trigger storage_trash_totals_updated after update on storage_trash
     referencing old table as before_rows new table as after_rows for each statement execute function storage_trash_totals_updated()`,
];

const downStatements: string[] = [
  `drop trigger if exists storage_trash_totals_updated on storage_trash`,
  `drop function if exists storage_trash_totals_updated()`,
  `drop trigger if exists storage_trash_totals_deleted on storage_trash`,
  `drop function if exists storage_trash_totals_deleted()`,
  `drop trigger if exists storage_trash_totals_inserted on storage_trash`,
  `drop function if exists storage_trash_totals_inserted()`,
  `drop table if exists storage_trash_totals`,
];

// One statement a query: PGlite's extended protocol takes one at a time.
export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const statement of downStatements) await sql.raw(statement).execute(db);
}
