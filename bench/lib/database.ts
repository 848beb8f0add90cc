import { Kysely, sql } from "kysely";
import { openDatabase, type DB } from "../../app/modules/db/db.server";
import { migrateToLatest } from "../../db/migrator";

export interface BenchDatabase {
  db: DB;
  url: string;
  drop(): Promise<void>;
}

/**
 * A fresh, migrated PostgreSQL database for one benchmark run, on the server the tests use
 * (TEST_DATABASE_URL, DATABASE_URL or the local default); `drop()` closes and removes it.
 */
export async function createBenchDatabase(label: string, { poolSize = 4 }: { poolSize?: number } = {}): Promise<BenchDatabase> {
  const serverUrl = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
  const name = `aligner_bench_${label}_${process.pid}`;
  const admin = await openDatabase({ kind: "postgres", url: serverUrl }, { poolSize: 1 });
  await sql`drop database if exists ${sql.id(name)} with (force)`.execute(admin);
  await sql`create database ${sql.id(name)}`.execute(admin);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const db = await openDatabase({ kind: "postgres", url: url.toString() }, { poolSize });
  await migrateToLatest(db as Kysely<any>);
  return {
    db,
    url: url.toString(),
    async drop() {
      await db.destroy();
      await sql`drop database if exists ${sql.id(name)} with (force)`.execute(admin);
      await admin.destroy();
    },
  };
}
