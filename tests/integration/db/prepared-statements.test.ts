import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DB, openDatabase, plannedCount } from "~/modules/db/db.server";
import { createTestDatabase, type TestDatabase } from "../../support/database";

/**
 * Statements prepared once per connection (ADR 086), on the real PostgreSQL: what the server holds
 * for a connection is `pg_prepared_statements`, read on that same connection (a pool of one).
 */

let t: TestDatabase;
const opened: DB[] = [];

beforeAll(async () => {
  t = await createTestDatabase(2);
});

afterAll(async () => {
  await Promise.all(opened.map((db) => db.destroy()));
  await t?.drop();
});

async function connection(preparedStatements?: boolean): Promise<DB> {
  const db = await openDatabase({ kind: "postgres", url: t.url, preparedStatements }, { poolSize: 1 });
  opened.push(db);
  return db;
}

async function preparedOn(db: DB): Promise<string[]> {
  const { rows } = await sql<{ statement: string }>`select statement from pg_prepared_statements order by prepare_time`.execute(db);
  return rows.map((row) => row.statement);
}

describe("prepared statements", () => {
  it("a statement with parameters is prepared once and executed by name from then on, with each call's own values", async () => {
    const db = await connection();
    const order = (code: string) => db.selectNoFrom(sql<string>`${code}::text`.as("code")).executeTakeFirstOrThrow();
    expect(await order("A1B2")).toEqual({ code: "A1B2" });
    expect(await order("C3D4")).toEqual({ code: "C3D4" });
    const prepared = (await preparedOn(db)).filter((text) => text.includes("::text as"));
    expect(prepared).toHaveLength(1);
  });

  it("a statement without parameters goes by the simple protocol: several commands in one text still run, and nothing is prepared for it", async () => {
    const db = await connection();
    await sql`create temporary table seen (n int); insert into seen values (1), (2)`.execute(db);
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from seen`.execute(db);
    expect(rows[0]!.n).toBe(2);
    expect((await preparedOn(db)).filter((text) => text.includes("seen"))).toEqual([]);
  });

  it("a connection holds at most 256 of them: past that, statements still answer, unprepared", async () => {
    const db = await connection();
    for (let n = 0; n < 300; n++) {
      const { rows } = await sql<{ n: number }>`select ${n}::int + ${sql.lit(n)} as n`.execute(db);
      expect(rows[0]!.n).toBe(2 * n);
    }
    const prepared = await preparedOn(db);
    expect(prepared.length).toBeLessThanOrEqual(256);
    expect(prepared.length).toBeGreaterThan(200);
  });

  it("a page's limit written as a planned count lets PostgreSQL keep one generic plan; as a parameter it is planned for every request", async () => {
    const db = await connection();
    // A list the size of a working lab's, with the index a page reads it by.
    await sql`create temporary table listed as select g as id, now() - g * interval '1 minute' as created_at, (array['paid', 'processing', 'shipped'])[g % 3 + 1] as status from generate_series(1, 50000) g;
      create index on listed (created_at); analyze listed`.execute(db);
    const page = (limit: number | ReturnType<typeof plannedCount>) =>
      sql`select id from listed where status in (${"paid"}, ${"processing"}) order by created_at desc limit ${limit}`.execute(db);
    for (let i = 0; i < 8; i++) {
      await page(plannedCount(11));
      await page(11);
    }
    const { rows } = await sql<{ statement: string; generic_plans: number; custom_plans: number }>`
      select statement, generic_plans::int, custom_plans::int from pg_prepared_statements where statement like '%from listed%'`.execute(db);
    const literal = rows.find((row) => row.statement.includes("limit 11"))!;
    const parameter = rows.find((row) => /limit \$\d/.test(row.statement))!;
    expect(literal.generic_plans).toBe(3);
    expect(parameter.custom_plans).toBe(8);
  });

  it("DATABASE_PREPARED_STATEMENTS=false prepares nothing (a pooler in transaction mode)", async () => {
    const db = await connection(false);
    await db.selectNoFrom(sql<number>`${1}::int`.as("one")).execute();
    expect(await preparedOn(db)).toEqual([]);
  });
});
