import { Kysely, sql } from "kysely";
import { inject } from "vitest";
import { openDatabase, type DB } from "~/modules/db/db.server";
import { migrateToLatest } from "~db/migrator";

/**
 * Test databases on the machine's PostgreSQL (TEST_DATABASE_URL or DATABASE_URL, else the local
 * trust-auth server). The global setup migrates one template; each test file clones its own
 * database from it, so files never see each other's rows.
 */

/** The template of this run, provided by the global setup. */
function templateName(): string {
  return inject("templateDatabase");
}

export function serverUrl(): string {
  return process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
}

export function databaseUrl(name: string): string {
  const url = new URL(serverUrl());
  url.pathname = `/${name}`;
  return url.toString();
}

async function withAdmin<T>(run: (admin: DB) => Promise<T>): Promise<T> {
  const admin = await openDatabase({ kind: "postgres", url: databaseUrl("postgres") }, { poolSize: 1 });
  try {
    return await run(admin);
  } finally {
    await admin.destroy();
  }
}

export async function createTemplateDatabase(name: string): Promise<void> {
  await withAdmin(async (admin) => {
    await sql`drop database if exists ${sql.id(name)} with (force)`.execute(admin);
    await sql`create database ${sql.id(name)}`.execute(admin);
  });
  const template = await openDatabase({ kind: "postgres", url: databaseUrl(name) }, { poolSize: 1 });
  try {
    await migrateToLatest(template as Kysely<any>);
  } finally {
    await template.destroy();
  }
}

export async function dropTemplateDatabase(name: string): Promise<void> {
  await withAdmin(async (admin) => {
    await sql`drop database if exists ${sql.id(name)} with (force)`.execute(admin);
  });
}

export interface TestDatabase {
  db: DB;
  name: string;
  url: string;
  drop(): Promise<void>;
}

let counter = 0;

/** A fresh, migrated database cloned from the template. */
export async function createTestDatabase(poolSize = 20): Promise<TestDatabase> {
  const name = `aligner_test_${process.pid}_${Date.now().toString(36)}_${counter++}`;
  await withAdmin(async (admin) => {
    await sql`create database ${sql.id(name)} template ${sql.id(templateName())}`.execute(admin);
  });
  const url = databaseUrl(name);
  const db = await openDatabase({ kind: "postgres", url }, { poolSize });
  return {
    db,
    name,
    url,
    async drop() {
      await db.destroy();
      await withAdmin(async (admin) => {
        await sql`drop database if exists ${sql.id(name)} with (force)`.execute(admin);
      });
    },
  };
}

/** The databases the service runs on, by name and kind, for `describe.each`. */
export const DATABASE_KINDS = [
  ["PostgreSQL", "postgres"],
  ["PGlite", "pglite"],
] as const;

/**
 * A migrated database of either kind the service runs on, for suites that check the same SQL on both:
 * a clone of the template on PostgreSQL, or an embedded PGlite in memory.
 */
export async function databaseOfKind(kind: "postgres" | "pglite", poolSize = 4): Promise<{ db: DB; drop(): Promise<void> }> {
  if (kind === "postgres") return createTestDatabase(poolSize);
  const db = await openDatabase({ kind: "pglite", dir: "memory://" });
  await migrateToLatest(db as Kysely<any>);
  return { db, drop: () => db.destroy() };
}
