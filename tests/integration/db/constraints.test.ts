import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../support/database";
import { buildOrder, buildPatient } from "../../support/builders";

/** The database itself refuses bad data, even past the application. */
describe("database constraints", () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase(4);
  });
  afterAll(async () => t.drop());

  it("refuses an unknown order status", async () => {
    const order = await buildOrder(t.db);
    await expect(
      t.db.updateTable("orders").set({ status: "pending_payment" as never }).where("id", "=", order.id).execute(),
    ).rejects.toThrow(/check constraint/);
  });

  it("refuses a negative amount", async () => {
    const order = await buildOrder(t.db);
    await expect(t.db.updateTable("orders").set({ total_cost: -100 }).where("id", "=", order.id).execute()).rejects.toThrow(/check constraint/);
    await expect(
      t.db.insertInto("partner_payouts").values({ partner_code_id: randomUUID(), amount: -1, period_year: 2026, period_quarter: 1 }).execute(),
    ).rejects.toThrow(/check constraint|foreign key/);
  });

  it("refuses a duplicate order code", async () => {
    const order = await buildOrder(t.db);
    await expect(t.db.insertInto("order_codes").values({ code: order.code }).execute()).rejects.toThrow(/duplicate key/);
  });

  it("refuses an order whose code is not the start of its id", async () => {
    await expect(
      t.db.insertInto("orders").values({ id: randomUUID(), code: "zzzz", market: "domestic", currency: "rub" }).execute(),
    ).rejects.toThrow(/check constraint/);
  });

  it("refuses an orphan patient", async () => {
    await expect(
      t.db
        .insertInto("orders_patients")
        .values({ order_id: randomUUID(), patient_name: "Сидоров", folder_name: "abcd_1", matrix_files_info: "[]", aligner_files_info: "[]", retainer_files_info: "[]" })
        .execute(),
    ).rejects.toThrow(/foreign key/);
  });

  it("refuses a file correction with no jaw, a step outside 1–999, an unknown kind or no actor, and keeps a good one", async () => {
    const order = await buildOrder(t.db);
    const patient = await buildPatient(t.db, order.id);
    const good = { order_id: order.id, patient_id: patient.id, file_type: "aligners" as const, storage_path: "order_x/x_1/aligners/a.stl", original_name: "a.stl", from_jaw: "upper" as const, from_step: null, from_guessed: true, to_jaw: "lower" as const, to_step: 3, actor: "manager@aligner.test" };
    for (const bad of [{ to_jaw: "middle" }, { to_step: 0 }, { to_step: 1000 }, { file_type: "crowns" }, { actor: "  " }]) {
      await expect(t.db.insertInto("order_file_corrections").values({ ...good, ...bad } as never).execute(), JSON.stringify(bad)).rejects.toThrow(/check constraint/);
    }
    await expect(t.db.insertInto("order_file_corrections").values({ ...good, order_id: randomUUID() }).execute()).rejects.toThrow(/foreign key/);
    await t.db.insertInto("order_file_corrections").values(good).execute();
    // The history goes with its order.
    await t.db.deleteFrom("orders").where("id", "=", order.id).execute();
    expect(await t.db.selectFrom("order_file_corrections").select("id").where("order_id", "=", order.id).execute()).toEqual([]);
  });

  it("refuses an unknown queue file type and a blank patient name", async () => {
    const order = await buildOrder(t.db);
    const patient = await buildPatient(t.db, order.id);
    await expect(
      t.db
        .insertInto("ftp_uploads_queue")
        .values({ order_id: order.id, patient_id: patient.id, file_path: "x", original_name: "x.stl", destination_path: "d", order_prefix: order.code, file_type: "aligner" as never })
        .execute(),
    ).rejects.toThrow(/check constraint/);
    await expect(
      t.db.insertInto("orders_patients").values({ order_id: order.id, patient_name: "   ", folder_name: `${order.code}_9`, matrix_files_info: "[]", aligner_files_info: "[]", retainer_files_info: "[]" }).execute(),
    ).rejects.toThrow(/check constraint/);
  });

  it("refuses a paid order without its payment time and a shipped one without a tracking number", async () => {
    const order = await buildOrder(t.db);
    await expect(t.db.updateTable("orders").set({ status: "paid" }).where("id", "=", order.id).execute()).rejects.toThrow(/check constraint/);
    await expect(
      t.db.updateTable("orders").set({ status: "shipped", paid_at: new Date() }).where("id", "=", order.id).execute(),
    ).rejects.toThrow(/check constraint/);
  });

  it("refuses a current patient from another order", async () => {
    const first = await buildOrder(t.db);
    const second = await buildOrder(t.db);
    const foreignPatient = await buildPatient(t.db, second.id);
    await expect(
      t.db.updateTable("orders").set({ current_patient_id: foreignPatient.id }).where("id", "=", first.id).execute(),
    ).rejects.toThrow(/foreign key/);
  });
});
