import type { DB } from "~/modules/db/db.server";
import { isUuid } from "./orders.server";

/**
 * An order as its clinic opens it in the cabinet (ADR 070): only the signed-in client whose address
 * the order bears, and never a draft. Any other id — another clinic's, a draft, a malformed one —
 * finds nothing, which the pages answer with 404. The order's page and its invoices (ADR 072) read it.
 */
export async function clientOrder(db: DB, email: string, orderId: string | undefined) {
  if (!orderId || !isUuid(orderId)) return undefined;
  return db
    .selectFrom("orders")
    .select(["id", "status", "created_at", "market", "full_name", "address", "delivery_comment", "total_cost", "currency", "tracking_number", "carrier", "parcel_received_at", "storage_removed_at"])
    .where("id", "=", orderId)
    .where("email", "=", email)
    .where("status", "<>", "draft")
    .executeTakeFirst();
}
