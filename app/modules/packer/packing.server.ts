import type { OrderStatus } from "~db/schema";
import { type DB, inTransaction } from "~/modules/db/db.server";
import { changeOrderStatus, lockOrderColumns } from "~/modules/orders/orders.server";
import { type Actor, checkTransition } from "~/modules/orders/status";
import { TO_PACK } from "./filter";

/**
 * The packer's "Упаковано" (ADR 068): a mark on the order, once, with who and when, and the status
 * moved on where the specification's statuses allow it. Packing is past production, so a paid order
 * goes to "В работе"; an order already in work stays there — "Отправлен" needs the tracking number
 * and carrier that staff record, and no status means "packed".
 */

/** The status a packed order moves to from the one it has; null when none fits. */
export function statusAfterPacking(from: OrderStatus): OrderStatus | null {
  return from === "paid" && checkTransition("paid", "processing", "staff").ok ? "processing" : null;
}

export type PackingResult =
  | { ok: true; number: string; from: OrderStatus; to: OrderStatus | null }
  | { ok: false; reason: "not_found" | "not_due" | "already_packed" }
  | { ok: false; reason: "unscanned"; missing: number };

/** The bags not scanned (ADR 103) and the packer's reason for packing without them. */
export interface PackingCheck {
  missing: number;
  reason?: string | null;
}

/** Marks the order packed: once every bag is scanned, or with a reason for those that are not (ADR 103). */
export async function markPacked(db: DB, orderId: string, actor: Actor, check: PackingCheck): Promise<PackingResult> {
  const reason = check.reason?.trim() || null;
  return inTransaction(db, async (trx) => {
    const order = await lockOrderColumns(trx, orderId, ["id", "status"]);
    if (!order || order.status === "draft") return { ok: false, reason: "not_found" };
    if (!TO_PACK.includes(order.status)) return { ok: false, reason: "not_due" };
    const marked = await trx.selectFrom("order_packings").select("id").where("order_id", "=", orderId).executeTakeFirst();
    if (marked) return { ok: false, reason: "already_packed" };
    if (check.missing > 0 && !reason) return { ok: false, reason: "unscanned", missing: check.missing };
    const to = statusAfterPacking(order.status);
    if (to) await changeOrderStatus(trx, orderId, to, actor);
    await trx.insertInto("order_packings").values({ order_id: orderId, actor: actor.label, from_status: order.status, to_status: to, missing_bags: check.missing, missing_reason: check.missing > 0 ? reason : null }).execute();
    return { ok: true, number: orderId.slice(0, 4).toUpperCase(), from: order.status, to };
  });
}

export interface PackingEntry {
  orderId: string;
  at: string;
  actor: string;
  from: OrderStatus;
  to: OrderStatus | null;
  /** Bags not scanned when packed, and why (ADR 103). */
  missingBags: number;
  reason: string | null;
}

/** The packing marks of these orders (at most one each). */
export async function packingsOf(db: DB, orderIds: string[]): Promise<PackingEntry[]> {
  if (orderIds.length === 0) return [];
  const rows = await db.selectFrom("order_packings").select(["order_id", "created_at", "actor", "from_status", "to_status", "missing_bags", "missing_reason"]).where("order_id", "in", orderIds).execute();
  return rows.map((row) => ({ orderId: row.order_id, at: row.created_at.toISOString(), actor: row.actor, from: row.from_status, to: row.to_status, missingBags: row.missing_bags, reason: row.missing_reason }));
}
