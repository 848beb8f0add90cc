import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql, type Kysely } from "kysely";
import { openDatabase, type DB } from "~/modules/db/db.server";
import { migrateAllDown, migrateToLatest } from "~db/migrator";
import { migrations } from "~db/migrations";
import { createTestDatabase, type TestDatabase } from "../../support/database";

async function tableNames(db: DB) {
  const result = await sql<{ name: string }>`
    select table_name as name from information_schema.tables where table_schema = 'public' order by 1`.execute(db);
  return result.rows.map((row) => row.name);
}

const EXPECTED = [
  "bag_scans", "client_settings", "client_summaries", "erasure_requests", "ftp_uploads_queue", "ftp_uploads_view", "housekeeping_lease", "invoices", "order_codes", "order_file_corrections", "order_messages", "order_packings", "order_status_history", "order_threads", "orders",
  "orders_patients", "partner_affiliate_order_stats", "partner_affiliates", "partner_balance_summary", "partner_codes",
  "partner_payouts", "payment_events", "payments", "rate_limits", "request_replays", "role_changes", "sessions", "sign_in_tokens", "staff_preferences", "storage_trash", "storage_trash_totals", "storage_walk", "translations", "translations_version", "user_roles", "users",
];

describe.each([
  ["PostgreSQL", "postgres"],
  ["PGlite", "pglite"],
] as const)("migrations on %s", (_name, kind) => {
  let target: TestDatabase | undefined;
  let db: DB;

  beforeAll(async () => {
    if (kind === "postgres") {
      target = await createTestDatabase(2);
      db = target.db;
    } else {
      db = await openDatabase({ kind: "pglite", dir: "memory://" });
    }
  });
  afterAll(async () => {
    if (target) await target.drop();
    else await db.destroy();
  });

  it("go down to nothing and up again to every table and view", async () => {
    if (kind === "pglite") await migrateToLatest(db as Kysely<any>);
    expect((await tableNames(db)).filter((name) => !name.startsWith("kysely_"))).toEqual(EXPECTED);
    const down = await migrateAllDown(db as Kysely<any>);
    expect(down).toHaveLength(Object.keys(migrations).length);
    expect((await tableNames(db)).filter((name) => !name.startsWith("kysely_"))).toEqual([]);
    await migrateToLatest(db as Kysely<any>);
    expect((await tableNames(db)).filter((name) => !name.startsWith("kysely_"))).toEqual(EXPECTED);
  });

  it("give every foreign key an index that leads with its columns, so deleting a referenced row never scans the referencing table", async () => {
    // A delete checks (cascade, set null, restrict) the referencing rows of each foreign key: without
    // such an index, one scan of the table per deleted row (ADR 041: a million queue rows per patient).
    const unindexed = await sql<{ name: string }>`
      select c.conrelid::regclass::text || '.' || c.conname as name
        from pg_constraint c
       where c.contype = 'f'
         and c.connamespace = 'public'::regnamespace
         and not exists (
           select 1 from pg_index i
            where i.indrelid = c.conrelid
              and (i.indkey::int2[])[0:least(i.indnkeyatts, cardinality(c.conkey)) - 1] <@ c.conkey)
       order by 1`.execute(db);
    expect(unindexed.rows.map((row) => row.name)).toEqual([]);
  });
});
