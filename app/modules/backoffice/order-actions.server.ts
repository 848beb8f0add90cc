import type { OrderStatus } from "~db/schema";
import type { AppConfig } from "~/modules/config/config.server";
import type { DB } from "~/modules/db/db.server";
import { logger } from "~/modules/log/logger.server";
import { changeOrderStatus, deleteNeverPaidRow, findOrder, isUuid, OrderNotFoundError, OrderTransitionError } from "~/modules/orders/orders.server";
import { isJump } from "~/modules/orders/status";
import { reconcileOrder } from "~/modules/payments/reconciliation.server";
import type { FileStorage } from "~/modules/storage/storage.server";

/**
 * Staff's actions on an order (staff side §2): a change of its status through the state machine
 * (DESIGN §4.1), and deletion of an order never paid (DESIGN §4.7).
 */

// ---------------------------------------------------------------------------------------------
// Status changes

/** The statuses staff move orders to from the cards. */
export const STAFF_TARGETS = [
  "processing",
  "shipped",
  "completed",
  "cancelled",
] as const satisfies readonly OrderStatus[];
export type StaffTarget = (typeof STAFF_TARGETS)[number];

export type StatusResult =
  | { ok: true; changed: boolean; changeId: string | null }
  | {
      ok: false;
      reason:
        | "not_found"
        | "not_allowed"
        | "note_required"
        | "tracking_required"
        | "actor_not_allowed"
        | "confirm_jump";
    };

/** The longest cancel note and tracking number a status change keeps (the route refuses longer ones). */
export const STATUS_NOTE_MAX = 1000;
export const TRACKING_NUMBER_MAX = 100;

/**
 * A staff change of an order's status through the state machine. `confirmJumps` (CONFIRM_STATUS_JUMPS,
 * ADR 062): a change that skips a step or ends the order is made only when `confirmed`.
 */
export async function staffChangeStatus(
  db: DB,
  orderId: string,
  to: StaffTarget,
  actorLabel: string,
  details: {
    note?: string | null;
    trackingNumber?: string | null;
    carrier?: string | null;
    confirmed?: boolean;
    confirmJumps?: boolean;
  }
): Promise<StatusResult> {
  if (!isUuid(orderId)) return { ok: false, reason: "not_found" };
  try {
    if (details.confirmJumps && !details.confirmed) {
      const current = await findOrder(db, orderId);
      if (!current) return { ok: false, reason: "not_found" };
      if (current.status !== to && isJump(current.status, to))
        return { ok: false, reason: "confirm_jump" };
    }
    const change = await changeOrderStatus(
      db,
      orderId,
      to,
      { kind: "staff", label: actorLabel },
      {
        note: details.note?.trim() || null,
        trackingNumber: details.trackingNumber?.trim() || null,
        carrier: details.carrier || null,
      }
    );
    return { ok: true, changed: change.changed, changeId: change.changeId };
  } catch (error) {
    if (error instanceof OrderNotFoundError)
      return { ok: false, reason: "not_found" };
    if (error instanceof OrderTransitionError)
      return {
        ok: false,
        reason: error.reason as Exclude<StatusResult, { ok: true }>["reason"],
      };
    throw error;
  }
}

// ---------------------------------------------------------------------------------------------
// Deletion (DESIGN §4.7)

export type DeletionResult =
  | { ok: true; files: number; filesLeft: number }
  | { ok: false; reason: "not_found" | "was_paid" | "payment_unclear" };

/**
 * Deletes an order that never had a successful payment, with its files, queue entries and order
 * code (the last two by foreign keys). A pending order is first checked with its payment provider,
 * so a payment made a minute ago is not lost with it. The row is locked while it is checked and
 * deleted, so a payment confirmed meanwhile waits and then finds no order. Payment rows stay
 * (their order id becomes null). Files go after the row: any left behind are trash of an order that
 * no longer exists, which the files screen can delete.
 */
/**
 * Deletes an order that never had a successful payment, with its files, queue entries and order
 * code (the last two by foreign keys). A pending order is first checked with its payment provider,
 * so a payment made a minute ago is not lost with it. The row is locked while it is checked and
 * deleted (orders' `deleteNeverPaidRow`). Files go after the row: any left behind are trash of an
 * order that no longer exists, which the files screen can delete.
 */
export async function deleteNeverPaidOrder(db: DB, storage: FileStorage, config: AppConfig, orderId: string): Promise<DeletionResult> {
  const order = await findOrder(db, orderId);
  if (!order) return { ok: false, reason: "not_found" };
  if (order.status === "pending") {
    const state = await reconcileOrder(db, config, order);
    if (state === "paid") return { ok: false, reason: "was_paid" };
    if (state === "update_failed") return { ok: false, reason: "payment_unclear" };
  }
  const deleted = await deleteNeverPaidRow(db, order.id);
  if (deleted !== "deleted") return { ok: false, reason: deleted };

  let keys: string[] = [];
  try {
    keys = (await storage.list("orders", `order_${order.id}/`)).map((object) => object.key);
    if (keys.length) await storage.delete("orders", keys);
    return { ok: true, files: keys.length, filesLeft: 0 };
  } catch (error) {
    logger.error(`back-office: files of deleted order ${order.id} stay in storage:`, error);
    return { ok: true, files: 0, filesLeft: Math.max(keys.length, 1) };
  }
}
