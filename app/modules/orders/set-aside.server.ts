import { sql } from "kysely";
import type { FileType } from "~db/schema";
import type { DB } from "~/modules/db/db.server";
import { OrderFrozenError } from "./drafts.server";
import { FILE_COLUMNS, SKIP_COLUMNS } from "./files.server";

/**
 * A declined step stays declined (ADR 087): a confirmed skip sets the step's files aside — on the
 * list, in storage, out of the order — and "Вернуть в заказ" brings them back. The file lists'
 * other changes (uploads, removals, declarations) are files.server.ts.
 */

/**
 * A confirmed skip (ADR 087): the step's files are set aside — kept on the list and in storage,
 * marked, and their queue entries held — and the skip's time recorded, in one transaction on the
 * patient's row. Only a draft's patient changes.
 */
export async function setStepAside(db: DB, orderId: string, patientId: string, type: FileType): Promise<void> {
  const skip = SKIP_COLUMNS[type];
  await changeStep(db, orderId, patientId, type, {
    list: (column) => sql`(select coalesce(jsonb_agg(case when jsonb_typeof(e.f) = 'object' then e.f || '{"setAside": true}'::jsonb else e.f end order by e.i), '[]'::jsonb)
      from jsonb_array_elements(${sql.ref(column)}) with ordinality as e(f, i))`,
    skip: { [skip.flag]: true, [skip.at]: new Date(), [skip.back]: null },
    queue: sql<Date>`now()`,
  });
}

/**
 * "Вернуть в заказ" (ADR 087): the step's set-aside files back in the order, their queue entries
 * due again with the order, and a skipped step no longer skipped — the summary says it came back.
 */
export async function restoreStep(db: DB, orderId: string, patientId: string, type: FileType): Promise<void> {
  const skip = SKIP_COLUMNS[type];
  await changeStep(db, orderId, patientId, type, {
    list: (column) => sql`(select coalesce(jsonb_agg(case when jsonb_typeof(e.f) = 'object' then e.f - 'setAside' else e.f end order by e.i), '[]'::jsonb)
      from jsonb_array_elements(${sql.ref(column)}) with ordinality as e(f, i))`,
    skip: { [skip.flag]: false, [skip.at]: null, [skip.back]: sql`case when ${sql.ref(skip.flag)} then now() else ${sql.ref(skip.back)} end` },
    queue: null,
  });
}

/** One upload step of a draft's patient changed with its files' queue entries, in one transaction. */
async function changeStep(db: DB, orderId: string, patientId: string, type: FileType, change: { list: (column: string) => unknown; skip: Record<string, unknown>; queue: unknown }) {
  const column = FILE_COLUMNS[type];
  await db.transaction().execute(async (trx) => {
    const result = await trx
      .updateTable("orders_patients")
      .set({ [column]: change.list(column), ...change.skip, updated_at: new Date() } as never)
      .where("id", "=", patientId)
      .where("order_id", "=", orderId)
      .where((eb) => eb.exists(eb.selectFrom("orders").select("id").where("id", "=", orderId).where("status", "=", "draft")))
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) throw new OrderFrozenError();
    await trx
      .updateTable("ftp_uploads_queue")
      .set({ set_aside_at: change.queue as never })
      .where("patient_id", "=", patientId)
      .where("order_id", "=", orderId)
      .where("file_type", "=", type)
      .where("set_aside_at", change.queue === null ? "is not" : "is", null)
      .execute();
  });
}
