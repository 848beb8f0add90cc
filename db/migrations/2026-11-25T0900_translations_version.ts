import { type Kysely, sql } from "kysely";

// Frozen in time. Staff edits in `translations` override interface texts at run time; every app
// instance caches them briefly in memory and re-reads them only when this version number moved
// (DESIGN §2, §4.30; docs/decisions/016-landing-and-translations.md). A statement trigger bumps the
// version in the same transaction as the change, so no writer (back-office, machine translation,
// seed, plain SQL) can forget it, and a reader that sees the new number also sees the new rows.
// Statements run one by one because PGlite's extended protocol accepts one statement per query.

const upStatements: string[] = [
  `create table translations_version (
    id boolean primary key default true check (id),
    version bigint not null default 0 check (version >= 0)
  )`,
  `insert into translations_version (id, version) values (true, 0)`,
  `create function translations_version_bump() returns trigger language plpgsql as $$
    begin
      update translations_version set version = version + 1 where id;
      return null;
    end
  $$`,
  `create trigger translations_version_bump after insert or update or delete or truncate on translations
     for each statement execute function translations_version_bump()`,
];

const downStatements: string[] = [
  `drop trigger if exists translations_version_bump on translations`,
  `drop function if exists translations_version_bump()`,
  `drop table if exists translations_version`,
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of upStatements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const statement of downStatements) await sql.raw(statement).execute(db);
}
