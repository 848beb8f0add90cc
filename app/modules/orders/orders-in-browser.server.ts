import type { Currency } from "~db/schema";
import type { DB } from "~/modules/db/db.server";
import type { Market } from "~/modules/market/market";
import { longOrderNumber } from "./orders.server";

/**
 * The orders this browser started that still wait for it (ADR 087): one awaiting payment, or a draft
 * that holds something typed. `/order` and the landing offer them (continue, pay, or start another),
 * so a doctor who left the checkout, or cleared the wizard, never loses an order. Only the browser's
 * own orders (its signed cookie, DESIGN §4.4), of the market it is on.
 */

/** At most this many are offered: the newest. */
const OFFERED = 3;

export interface OrderInBrowser {
  id: string;
  /** The number the summary shows (6 characters). */
  number: string;
  status: "draft" | "pending";
  /** The total of an order awaiting payment, in minor units. */
  total: number | null;
  currency: Currency;
}

export async function ordersInBrowser(db: DB, browserOrderIds: readonly string[], market: Market, except: string | null = null): Promise<OrderInBrowser[]> {
  const ids = browserOrderIds.filter((id) => id !== except);
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom("orders")
    .select(["id", "status", "total_cost", "currency"])
    .where("id", "in", ids)
    .where("market", "=", market)
    .where((eb) =>
      eb.or([
        eb("status", "=", "pending"),
        eb.and([
          eb("status", "=", "draft"),
          // A draft that holds something: an untouched one is nothing to come back to.
          eb.or([eb("email", "is not", null), eb("phone", "is not", null), eb("full_name", "is not", null), eb("address", "is not", null), eb.exists(eb.selectFrom("orders_patients").select("orders_patients.id").whereRef("orders_patients.order_id", "=", "orders.id"))]),
        ]),
      ]),
    )
    .orderBy("updated_at", "desc")
    .orderBy("id")
    .limit(OFFERED)
    .execute();
  return rows.map((row) => ({
    id: row.id,
    number: longOrderNumber(row.id),
    status: row.status as OrderInBrowser["status"],
    total: row.status === "pending" && row.total_cost !== null ? Number(row.total_cost) : null,
    currency: row.currency,
  }));
}
