import { sql } from "kysely";
import type { Order, Patient } from "~db/schema";
import type { DB } from "~/modules/db/db.server";
import { OrderFrozenError } from "./drafts.server";

/**
 * An order's patients: each with its folder on the production server (order code + running number).
 * Added and changed only while the order is a draft (DESIGN §4.3), checked in SQL.
 */

export async function listPatients(db: DB, orderId: string): Promise<Patient[]> {
  return db.selectFrom("orders_patients").selectAll().where("order_id", "=", orderId).orderBy("created_at").orderBy("folder_name").execute();
}

/** Adds a patient with the next folder name (order code + running number from 1) and selects it. */
export async function addPatient(db: DB, order: Pick<Order, "id" | "code">, name: string): Promise<Patient> {
  return db.transaction().execute(async (trx) => {
    const locked = await trx.selectFrom("orders").select("status").where("id", "=", order.id).forUpdate().executeTakeFirst();
    if (locked?.status !== "draft") throw new OrderFrozenError();
    const { next } = await trx
      .selectFrom("orders_patients")
      .select(sql<number>`coalesce(max(nullif(regexp_replace(folder_name, '^.*_', ''), '')::int), 0) + 1`.as("next"))
      .where("order_id", "=", order.id)
      .where("folder_name", "~", "_[0-9]+$")
      .executeTakeFirstOrThrow();
    const patient = await trx
      .insertInto("orders_patients")
      .values({
        order_id: order.id,
        patient_name: name.trim(),
        folder_name: `${order.code}_${next}`,
        matrix_files_info: "[]",
        aligner_files_info: "[]",
        retainer_files_info: "[]",
        matrix_type: null,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await trx.updateTable("orders").set({ current_patient_id: patient.id, updated_at: new Date() }).where("id", "=", order.id).execute();
    return patient;
  });
}

type PatientFields = Partial<
  Pick<
    Patient,
    "material_type" | "cut_type" | "matrix_type" | "additional_comments" | "skip_matrix" | "skip_aligners" | "skip_retainers" | "skip_matrix_at" | "skip_aligners_at" | "skip_retainers_at" | "unskip_matrix_at" | "unskip_aligners_at" | "unskip_retainers_at"
  >
>;

export async function updatePatient(db: DB, orderId: string, patientId: string, fields: PatientFields): Promise<void> {
  if (Object.keys(fields).length === 0) return;
  const result = await db
    .updateTable("orders_patients")
    .set({ ...fields, updated_at: new Date() })
    .where("id", "=", patientId)
    .where("order_id", "=", orderId)
    .where((eb) => eb.exists(eb.selectFrom("orders").select("id").where("id", "=", orderId).where("status", "=", "draft")))
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) throw new OrderFrozenError();
}

/** A patient's folder on the production server (order code + running number), or undefined. */
export async function patientFolderName(db: DB, patientId: string): Promise<string | undefined> {
  const patient = await db.selectFrom("orders_patients").select("folder_name").where("id", "=", patientId).executeTakeFirst();
  return patient?.folder_name;
}
