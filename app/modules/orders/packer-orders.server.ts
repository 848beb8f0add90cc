import { type ExpressionBuilder, sql } from "kysely";
import type { Database, OrderStatus } from "~db/schema";
import type { DB } from "~/modules/db/db.server";
import { keysetCasts, type KeysetKey, keysetPlan } from "~/modules/db/keyset.server";
import type { Cursor } from "~/modules/http/request/list-query";
import { foundBySearch } from "./order-search.server";

/**
 * What the packer station reads of the orders (DESIGN §4.25): non-draft orders with their number,
 * client, address, patients and file names — never prices, payments, phones, comments or anything
 * else of the back-office. Every query here selects its columns by name for that reason.
 */

const ORDER_COLUMNS = ["orders.id", "orders.code", "orders.status", "orders.full_name", "orders.email", "orders.address"] as const;

/** A page of the packer's list as it asks for it (packer/filter.ts). */
export interface PackerOrderQuery {
  /** The packed orders waiting to go (true), the ones still to pack (false) — both among `toPack` — or every order (null). */
  packed: boolean | null;
  /** The statuses of orders to pack: paid, or in work. */
  toPack: readonly OrderStatus[];
  status: OrderStatus | null;
  q: string;
  /** Keyset (ADR 091): the page starts after / ends before the row with these sort values. */
  after: Cursor | null;
  before: Cursor | null;
}

/** Newest first, ties by id. */
const PACKER_KEYS: KeysetKey[] = [
  { expr: sql`orders.created_at`, cast: "timestamptz", descending: true },
  { expr: sql`orders.id`, cast: "uuid", descending: false },
];

/** How the list's cursor holds its values (an address without one of them is an old `?page=N` one, ADR 091). */
export const PACKER_CURSOR_CASTS = keysetCasts(PACKER_KEYS);

/**
 * Non-draft orders, newest first, filtered by order number, client or patient and by status; one
 * page after (before) the address's cursor, with whether more follow and the page's cursors.
 */
export async function packerOrderPage(db: DB, filter: PackerOrderQuery, pageSize: number) {
  const plan = keysetPlan(PACKER_KEYS, filter.after, filter.before);
  const filtered = () => {
    let query = db.selectFrom("orders").where("orders.status", "!=", "draft");
    if (filter.packed !== null) {
      // The orders to pack and the packed ones waiting to go: paid or in work, with or without the mark.
      const packed = (eb: ExpressionBuilder<Database, "orders">) => eb.exists(eb.selectFrom("order_packings").select("order_packings.id").whereRef("order_packings.order_id", "=", "orders.id"));
      query = query.where("orders.status", "in", filter.toPack).where((eb) => (filter.packed ? packed(eb) : eb.not(packed(eb))));
    }
    if (filter.status) query = query.where("orders.status", "=", filter.status);
    return plan.past ? query.where(plan.past) : query;
  };
  let query = filtered().select(ORDER_COLUMNS).select(plan.select);
  // The back-office's search without the phone; each way of matching reads at most this page (ADR 042).
  if (filter.q) query = query.where(await foundBySearch(db, filter.q, { phone: false, narrowBase: filter.packed !== null }, filtered, pageSize + 1));
  for (const [key, direction] of plan.order) query = query.orderBy(key, direction);
  const read = await query.limit(pageSize + 1).execute();
  return plan.page(read, pageSize);
}

/** One non-draft order for its labels, or undefined. */
export function packerOrder(db: DB, orderId: string) {
  return db.selectFrom("orders").select(ORDER_COLUMNS).where("orders.id", "=", orderId).where("orders.status", "!=", "draft").executeTakeFirst();
}

/** The patients of these orders with their names, folders and file lists, in the order they were added. */
export function packerPatients(db: DB, orderIds: readonly string[]) {
  return db
    .selectFrom("orders_patients")
    .select(["order_id", "patient_name", "folder_name", "matrix_files_info", "aligner_files_info", "retainer_files_info"])
    .where("order_id", "in", [...orderIds])
    .orderBy("created_at")
    .execute();
}
