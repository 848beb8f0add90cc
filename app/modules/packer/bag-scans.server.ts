import { type DB, inTransaction } from "~/modules/db/db.server";
import { lockOrderColumns } from "~/modules/orders/orders.server";
import { type BagLabel, buildBagLabels, type LabelFile } from "./bag-labels";
import { orderPart, readBagCode } from "./bag-code";
import { TO_PACK } from "./filter";
import type { PackerFile, PackerOrder } from "./packer.server";

/**
 * Every bag scanned (ADR 103): the bags an order's labels print, which of them were scanned, and a
 * scan that ticks one — or is refused, saying why. Scans are rows of `bag_scans`, so every packer on
 * the order sees the same ticks and a reload keeps them; a code printed on n labels (a second file for
 * one step and jaw) takes n scans.
 */

const labelFiles = (files: PackerFile[]): LabelFile[] => files.map((file) => ({ name: file.name, jaw: file.jaw, stepNumber: file.step }));

/** The order's bag labels, as its label page prints them. */
export function bagLabelsOf(order: PackerOrder): BagLabel[] {
  return buildBagLabels(
    order,
    order.patients.map((patient) => ({
      patientName: patient.name,
      folderName: patient.folder,
      files: { matrix: labelFiles(patient.files.matrix), aligners: labelFiles(patient.files.aligners), retainer: labelFiles(patient.files.retainer) },
    })),
  );
}

export interface ScannedBag extends BagLabel {
  scanned: boolean;
}

/** How many times each code of the order was scanned. */
async function scanCounts(db: DB, orderId: string): Promise<Map<string, number>> {
  const rows = await db.selectFrom("bag_scans").select(["code"]).select((eb) => eb.fn.countAll<number>().as("count")).where("order_id", "=", orderId).groupBy("code").execute();
  return new Map(rows.map((row) => [row.code, Number(row.count)]));
}

/** Each bag of the order, ticked when scanned: the first n labels of a code scanned n times. */
export async function bagsOf(db: DB, order: PackerOrder): Promise<ScannedBag[]> {
  const counts = await scanCounts(db, order.id);
  return bagLabelsOf(order).map((label) => {
    const left = counts.get(label.code) ?? 0;
    if (left > 0) counts.set(label.code, left - 1);
    return { ...label, scanned: left > 0 };
  });
}

export type ScanRefusal = "not_ours" | "other_order" | "not_in_order" | "already_scanned" | "not_due" | "already_packed";
export type ScanResult = { ok: true; code: string } | { ok: false; reason: ScanRefusal };

/** One scan of a bag on the order's page: ticks its bag, or says why not; nothing changes when refused. */
export async function scanBag(db: DB, order: PackerOrder, typed: string, actor: string): Promise<ScanResult> {
  const read = readBagCode(typed);
  if (!read.ok) return { ok: false, reason: "not_ours" };
  if (read.order !== orderPart(order.id)) return { ok: false, reason: "other_order" };
  const printed = bagLabelsOf(order).filter((label) => label.code === read.code).length;
  if (printed === 0) return { ok: false, reason: "not_in_order" };
  return inTransaction(db, async (trx) => {
    // The order's row is the lock: two packers scanning the same bag at once tick it once.
    const locked = await lockOrderColumns(trx, order.id, ["status"]);
    if (!locked || !TO_PACK.includes(locked.status)) return { ok: false, reason: "not_due" };
    const packed = await trx.selectFrom("order_packings").select("id").where("order_id", "=", order.id).executeTakeFirst();
    if (packed) return { ok: false, reason: "already_packed" };
    const scanned = (await scanCounts(trx, order.id)).get(read.code) ?? 0;
    if (scanned >= printed) return { ok: false, reason: "already_scanned" };
    await trx.insertInto("bag_scans").values({ order_id: order.id, code: read.code, actor }).execute();
    return { ok: true, code: read.code };
  });
}

/** How many of the order's bags are not scanned yet. */
export async function unscannedCount(db: DB, order: PackerOrder): Promise<number> {
  return (await bagsOf(db, order)).filter((bag) => !bag.scanned).length;
}
