import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listCabinetOrders } from "~/modules/orders/cabinet-orders.server";
import { decodeCursor } from "~/modules/http/request/list-query";
import { cursorParam } from "~/modules/cabinet/cabinet-query";
import { buildOrderIn, buildPatient } from "../../support/builders";
import { createTestDatabase, type TestDatabase } from "../../support/database";

/**
 * The cabinet's search for a clinic of any size (ADR 098): a clinic's patients and orders are found
 * by name through indexes keyed by the clinic's e-mail first, so a name is looked up among the
 * clinic's own matches — not by probing every order it ever placed, nor among every clinic's
 * patients. The patient carries its order's e-mail, kept by the database.
 */
describe("the cabinet's patient search", () => {
  let t: TestDatabase;
  const clinic = "big-clinic@search.test";
  const other = "other-clinic@search.test";

  beforeAll(async () => {
    t = await createTestDatabase();
  });
  afterAll(async () => {
    await t?.drop();
  });

  const search = async (email: string, text: string) => (await listCabinetOrders(t.db, email, { search: text, status: null, sort: "newest", after: null })).map((row) => row.id);

  it("finds a clinic's order by a patient's name among many orders, never another clinic's, and follows an order whose e-mail is filled in later", async () => {
    const orders: string[] = [];
    for (let i = 0; i < 40; i++) {
      const order = await buildOrderIn(t.db, i % 2 ? "paid" : "completed", { email: clinic });
      await buildPatient(t.db, order.id, `Иванов Пациент ${i}`);
      orders.push(order.id);
    }
    const rare = await buildOrderIn(t.db, "paid", { email: clinic });
    await buildPatient(t.db, rare.id, "Ёлкина Варвара");
    const elsewhere = await buildOrderIn(t.db, "paid", { email: other });
    await buildPatient(t.db, elsewhere.id, "Ёлкина Варвара");

    expect(await search(clinic, "ЁЛКИНА")).toEqual([rare.id]);
    expect(await search(other, "ёлкина варвара")).toEqual([elsewhere.id]);
    expect(await search(clinic, "Пациент 3")).toEqual([orders[39]!, orders[38]!, orders[37]!, orders[36]!, orders[35]!, orders[34]!, orders[33]!, orders[32]!, orders[31]!, orders[30]!, orders[3]!]);
    expect(await search(clinic, "Нет такого")).toEqual([]);

    // A patient added before the order has its e-mail (a draft), found once the e-mail is filled in, and moved with it.
    const draft = await buildOrderIn(t.db, "paid", { email: "someone-else@search.test" });
    await buildPatient(t.db, draft.id, "Снегирёва Ольга");
    expect(await search(clinic, "Снегирёва")).toEqual([]);
    await t.db.updateTable("orders").set({ email: clinic }).where("id", "=", draft.id).execute();
    expect(await search(clinic, "Снегирёва")).toEqual([draft.id]);
    expect(await search("someone-else@search.test", "Снегирёва")).toEqual([]);
    const kept = await t.db.selectFrom("orders_patients").select("order_email").where("order_id", "=", draft.id).executeTakeFirstOrThrow();
    expect(kept.order_email).toBe(clinic);
  });

  it("looks a name common in the lab but rare in the clinic up by the clinic's own index, not among every clinic's patients", async () => {
    // 3,000 patients of that name in another clinic's orders.
    const elsewhere = await buildOrderIn(t.db, "completed", { email: other });
    await sql`insert into orders_patients (order_id, patient_name, folder_name, matrix_files_info, aligner_files_info, retainer_files_info)
      select ${elsewhere.id}::uuid, 'Ёлкина Варвара ' || n, 'x_' || n, '[]', '[]', '[]' from generate_series(1, 3000) n`.execute(t.db);
    await sql`analyze orders_patients`.execute(t.db);
    // A table this small is cheaper to read whole; what is checked is which index the planner takes.
    const plan = await t.db.transaction().execute(async (trx) => {
      await sql`set local enable_seqscan = off`.execute(trx);
      const explained = await sql<{ "QUERY PLAN": string }>`explain select order_id from orders_patients where order_email = ${clinic} and patient_name ilike ${"%ёлкина%"}`.execute(trx);
      return explained.rows.map((row) => row["QUERY PLAN"]).join("\n");
    });
    expect(plan).toContain("orders_patients_email_name_trgm_idx");
    expect(plan).toMatch(/Index Cond: \(\(order_email = .*\) AND \(patient_name ~~\* .*\)\)/);
    expect(plan).not.toContain("orders_patients_name_trgm_idx");
    expect(await search(clinic, "ёлкина")).toHaveLength(1);
  });

  it("writes its next page's cursor in the list kit's encoding: the database's UTC time to the microsecond, then the id", async () => {
    const rows = await listCabinetOrders(t.db, clinic, { search: "", status: null, sort: "newest", after: null });
    const last = rows[19]!;
    const cursor = decodeCursor(cursorParam({ createdAt: last.cursor_time, id: last.id }))!;
    expect(cursor).toEqual([last.cursor_time, last.id]);
    expect(last.cursor_time).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/);
    const next = await listCabinetOrders(t.db, clinic, { search: "", status: null, sort: "newest", after: { createdAt: last.cursor_time, id: last.id } });
    expect(next[0]!.id).toBe(rows[20]!.id);
  });
});
