import { type Kysely, sql } from "kysely";

// Frozen in time. Every grant and removal of a role, with who did it (ADR 069): the roles page's
// address field suggests staff and past staff from it, never every customer.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table role_changes (
    id bigint generated always as identity primary key,
    user_id uuid not null references users(id) on delete cascade,
    role text not null check (role in ('admin','manager','user')),
    change text not null check (change in ('granted','removed')),
    actor text not null check (btrim(actor) <> ''),
    created_at timestamptz not null default now()
  )`.execute(db);
  await sql`create index role_changes_user_idx on role_changes(user_id, created_at)`.execute(db);
  // Today's staff count as granted from the start: they are the first past staff once removed.
  await sql`insert into role_changes (user_id, role, change, actor, created_at)
    select user_id, role, 'granted', 'before role history', created_at from user_roles`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table if exists role_changes`.execute(db);
}
