import { type Kysely, sql } from "kysely";

// Frozen in time. Sessions go through Remix's session storage API (docs/decisions/027-sign-in-on-remix-auth.md):
// a row holds the session's data as JSON beside the signed-in user, and a visitor who has asked
// for a sign-in link but not used it yet has a row without a user.

const upStatements: string[] = [
  `alter table sessions alter column user_id drop not null`,
  `alter table sessions add column data jsonb not null default '{}'::jsonb check (jsonb_typeof(data) = 'object')`,
];

const downStatements: string[] = [
  `delete from sessions where user_id is null`,
  `alter table sessions drop column data`,
  `alter table sessions alter column user_id set not null`,
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of upStatements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const statement of downStatements) await sql.raw(statement).execute(db);
}
