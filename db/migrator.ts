import { type Kysely, type MigrationResultSet, Migrator } from "kysely";
import { migrations } from "./migrations";

function migrator(db: Kysely<any>) {
  return new Migrator({ db, provider: { getMigrations: async () => migrations } });
}

function unwrap(result: MigrationResultSet): string[] {
  if (result.error) throw result.error;
  return (result.results ?? []).map((step) => `${step.direction} ${step.migrationName}: ${step.status}`);
}

export async function migrateToLatest(db: Kysely<any>): Promise<string[]> {
  return unwrap(await migrator(db).migrateToLatest());
}

export async function migrateDown(db: Kysely<any>): Promise<string[]> {
  return unwrap(await migrator(db).migrateDown());
}

export async function migrateAllDown(db: Kysely<any>): Promise<string[]> {
  const { NO_MIGRATIONS } = await import("kysely");
  return unwrap(await migrator(db).migrateTo(NO_MIGRATIONS));
}
