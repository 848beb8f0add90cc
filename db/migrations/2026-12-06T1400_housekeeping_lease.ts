import { type Kysely, sql } from "kysely";

// Frozen in time. Housekeeping runs once an interval for the whole deployment, whatever the number of
// processes (ADR 084): the process that takes this one row's lease runs the pass, and the row records
// when the last pass started and ended, who ran it and how it went (and, for the metrics, since when
// the deployment has had housekeeping at all).
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table housekeeping_lease (
    id smallint primary key default 1 check (id = 1),
    held_by text,
    held_until timestamptz,
    last_started_at timestamptz,
    last_finished_at timestamptz,
    last_ran_by text,
    last_outcome text check (last_outcome in ('completed', 'failed')),
    passes bigint not null default 0 check (passes >= 0),
    created_at timestamptz not null default now(),
    check ((held_by is null) = (held_until is null))
  )`.execute(db);
  await sql`insert into housekeeping_lease (id) values (1)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table housekeeping_lease`.execute(db);
}
