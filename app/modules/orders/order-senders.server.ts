import { createHmac } from "node:crypto";
import { sql } from "kysely";
import { getConfig } from "~/modules/config/config.server";
import type { DB } from "~/modules/db/db.server";
import { addressGroup } from "~/modules/http/request/client-address";

/**
 * Who started an unpaid order (ADR 082), so that no one sender holds much of what all clients
 * share: the order codes (65,536, DESIGN §4.6) and the storage that drafts fill. An order started
 * over HTTP records a digest of its address group (an IPv4 address, an IPv6 /64) and, for a
 * signed-in client, one of the account; "unpaid" is a draft or an order awaiting payment, the
 * statuses a script can reach without paying. The digests are keyed with the session secret: the
 * column never shows an address. Both are cleared once the order is paid or cancelled.
 */

export interface OrderSender {
  /** The digest of the client's address group. */
  from: string;
  /** The digest of the signed-in account, or null for an anonymous visitor. */
  by: string | null;
}

/** Seconds a refused sender is told to wait (`Retry-After`): drafts nobody typed into go after a day, the others when sent or abandoned. */
export const UNPAID_ORDERS_RETRY_SECONDS = 3600;

const digest = (value: string) => createHmac("sha256", getConfig().secrets.SESSION_SECRET).update(`order-sender:${value}`).digest("base64url").slice(0, 22);

/** The digest of a signed-in account, as `started_by` holds it. */
export const accountDigest = (email: string) => digest(`account:${email.trim().toLowerCase()}`);

export function orderSender(sender: { clientAddress: string; accountEmail: string }): OrderSender & { by: string };
export function orderSender(sender: { clientAddress: string; accountEmail?: string | null }): OrderSender;
export function orderSender(sender: { clientAddress: string; accountEmail?: string | null }): OrderSender {
  return { from: digest(`address:${addressGroup(sender.clientAddress)}`), by: sender.accountEmail ? accountDigest(sender.accountEmail) : null };
}

/** The sender already holds `limit` unpaid orders: the new one is refused (429 with `Retry-After`). */
export class UnpaidOrdersExceeded extends Error {
  readonly retryAfterSeconds = UNPAID_ORDERS_RETRY_SECONDS;
  constructor() {
    super("The sender already holds as many unpaid orders as it may");
    this.name = "UnpaidOrdersExceeded";
  }
}

/**
 * In the new order's own transaction, before its code is reserved: throws UnpaidOrdersExceeded when
 * the address group or the account already holds `limit` unpaid orders. The sender's keys are locked
 * for the rest of the transaction (always in the same order), so orders started at once from one
 * sender, on any process, are counted one after the other and never pass the limit together.
 */
export async function claimUnpaidOrderTurn(trx: DB, sender: OrderSender, limit = getConfig().unpaidOrdersPerSender): Promise<void> {
  const keys = [`from:${sender.from}`, ...(sender.by ? [`by:${sender.by}`] : [])].sort();
  for (const key of keys) await sql`select pg_advisory_xact_lock(hashtextextended(${`unpaid-orders:${key}`}, 0))`.execute(trx);
  const held = await trx
    .selectFrom("orders")
    .select([
      sql<number>`count(*) filter (where started_from = ${sender.from})::int`.as("from_count"),
      sql<number>`count(*) filter (where started_by = ${sender.by})::int`.as("by_count"),
    ])
    .where("status", "in", ["draft", "pending"])
    .where((eb) => eb.or([eb("started_from", "=", sender.from), ...(sender.by ? [eb("started_by", "=", sender.by)] : [])]))
    .executeTakeFirstOrThrow();
  if (Number(held.from_count) >= limit || Number(held.by_count) >= limit) throw new UnpaidOrdersExceeded();
}

/**
 * The bytes of the files that the unpaid orders one signed-in clinic started hold together (ADR 082),
 * by the clinic's digest (`started_by`): what `UNPAID_ORDER_BYTES_PER_CLINIC` bounds.
 */
export async function unpaidBytesStartedBy(db: DB, startedBy: string): Promise<number> {
  const row = await db
    .selectFrom("orders")
    .innerJoin("ftp_uploads_queue", "ftp_uploads_queue.order_id", "orders.id")
    .select(sql<number>`coalesce(sum(ftp_uploads_queue.file_size), 0)::bigint`.as("bytes"))
    .where("orders.started_by", "=", startedBy)
    .where("orders.status", "in", ["draft", "pending"])
    .where("ftp_uploads_queue.removed_at", "is", null)
    .executeTakeFirstOrThrow();
  return Number(row.bytes);
}

/**
 * The clinic whose bound an order's files count against: the one that started it. A signed-in client
 * adding files to a draft started before they signed in makes it theirs from then on, so what they
 * store is always counted. Null for an order no signed-in client has started or added to.
 */
export async function clinicOfOrder(db: DB, orderId: string, accountEmail: string | null): Promise<string | null> {
  if (accountEmail) {
    await db.updateTable("orders").set({ started_by: accountDigest(accountEmail) }).where("id", "=", orderId).where("started_by", "is", null).where("status", "=", "draft").execute();
  }
  const row = await db.selectFrom("orders").select("started_by").where("id", "=", orderId).executeTakeFirst();
  return row?.started_by ?? null;
}

/** How many more bytes the clinic's unpaid orders may take (Infinity for an order no clinic started). */
export async function clinicRoom(db: DB, clinic: string | null, limit = getConfig().uploads.clinicUnpaidBytes): Promise<number> {
  return clinic ? limit - (await unpaidBytesStartedBy(db, clinic)) : Number.POSITIVE_INFINITY;
}
