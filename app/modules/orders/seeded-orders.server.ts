import type { Insertable, Updateable } from "kysely";
import type { OrdersPatientsTable, OrdersTable } from "~db/schema";
import type { DB } from "~/modules/db/db.server";

/**
 * The demo's orders written as they would have been composed (demo/orders.server.ts): a patient row
 * with its files, choices and times as given, and the order's composition and wizard state. Only the
 * seed writes rows whole like this; the app composes orders through drafts and patients.
 */

/** Inserts a patient as the seed composed it; returns its id. */
export async function insertSeededPatient(trx: DB, values: Insertable<OrdersPatientsTable>): Promise<string> {
  const row = await trx.insertInto("orders_patients").values(values).returning("id").executeTakeFirstOrThrow();
  return row.id;
}

/** Sets the order's composition and wizard state as the seed made them. */
export async function writeSeededComposition(trx: DB, orderId: string, fields: Updateable<OrdersTable>): Promise<void> {
  await trx.updateTable("orders").set(fields).where("id", "=", orderId).execute();
}
