import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "kysely";
import { storageTotals } from "~/modules/backoffice/storage-files.server";
import { createTestDatabase, type TestDatabase } from "../../support/database";

/**
 * The storage page's trash totals are kept as the trash changes (ADR 106): whatever the walk and the
 * deletes write — rows found, rows found again with another size, rows judged afresh and gone — the
 * page's two numbers are the trash's own count and sum.
 */
describe("the trash's totals", () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase(4);
  });
  afterAll(async () => {
    await t?.drop();
  });

  const counted = async () => {
    const row = (await sql<{ files: number; size: string }>`select count(*)::int as files, coalesce(sum(size), 0)::bigint as size from storage_trash`.execute(t.db)).rows[0]!;
    return { files: Number(row.files), size: Number(row.size) };
  };
  const row = (key: string, size: number) => ({ key, folder: key.split("/")[0]!, size, modified_at: new Date(), reason: "order_missing" as const });

  it("follow inserts, upserts with another size and deletes, as the walk and the deletes make them", async () => {
    expect(await storageTotals(t.db)).toMatchObject({ trashFiles: 0, trashSize: 0 });
    await t.db.insertInto("storage_trash").values([row("order_a/1.stl", 100), row("order_a/2.stl", 250), row("order_b/1.stl", 1_000)]).execute();
    expect(await storageTotals(t.db)).toMatchObject({ trashFiles: 3, trashSize: 1_350 });
    // Found again on the next pass: one row's size changed, one new.
    await t.db
      .insertInto("storage_trash")
      .values([row("order_a/2.stl", 50), row("order_c/1.stl", 7)])
      .onConflict((oc) => oc.column("key").doUpdateSet((eb) => ({ size: eb.ref("excluded.size") })))
      .execute();
    expect(await storageTotals(t.db)).toMatchObject({ trashFiles: 4, trashSize: 1_157 });
    await t.db.deleteFrom("storage_trash").where("folder", "=", "order_a").execute();
    const totals = await storageTotals(t.db);
    expect({ files: totals.trashFiles, size: totals.trashSize }).toEqual(await counted());
    expect(totals).toMatchObject({ trashFiles: 2, trashSize: 1_007 });
  });
});
