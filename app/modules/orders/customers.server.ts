import type { Order } from "~db/schema";
import type { DB } from "~/modules/db/db.server";
import { normalizeEmail } from "~/modules/validation/email";
import { EXISTING_CUSTOMER_SET } from "./status";

/** The customer behind an order's e-mail: their last contacts, whether they are new, their partner. */

/** Contact fields of a signed-in user's last non-draft order, to prefill a new one. */
export async function lastOrderContacts(db: DB, email: string) {
  return db
    .selectFrom("orders")
    .select(["phone", "email", "full_name", "address"])
    .where("email", "=", normalizeEmail(email))
    .where("status", "<>", "draft")
    .orderBy("created_at", "desc")
    .limit(1)
    .executeTakeFirst();
}

/** New-customer rule: no order of this e-mail in pending or the paid set (besides this one). */
export async function isNewCustomer(db: DB, email: string | null, exceptOrderId: string): Promise<boolean> {
  if (!email) return true;
  const row = await db
    .selectFrom("orders")
    .select("id")
    .where("email", "=", normalizeEmail(email))
    .where("status", "in", [...EXISTING_CUSTOMER_SET])
    .where("id", "<>", exceptOrderId)
    .limit(1)
    .executeTakeFirst();
  return !row;
}

/**
 * Partner linkage at hand-off (customer-side §4, DESIGN §4.29): once, when the saved code exists,
 * the e-mail has no non-draft order and no affiliate yet, and it is not the partner's own e-mail.
 */
export async function linkPartnerAtHandOff(db: DB, order: Pick<Order, "id" | "email">, partnerCode: string | null): Promise<boolean> {
  const email = normalizeEmail(order.email);
  if (!partnerCode || !email) return false;
  const partner = await db.selectFrom("partner_codes").select(["id", "user_email"]).where("code", "=", partnerCode.toUpperCase()).executeTakeFirst();
  if (!partner || partner.user_email === email) return false;
  const earlier = await db.selectFrom("orders").select("id").where("email", "=", email).where("status", "<>", "draft").where("id", "<>", order.id).limit(1).executeTakeFirst();
  if (earlier) return false;
  const inserted = await db
    .insertInto("partner_affiliates")
    .values({ partner_code_id: partner.id, affiliate_email: email, first_order_id: order.id })
    .onConflict((oc) => oc.column("affiliate_email").doNothing())
    .returning("id")
    .executeTakeFirst();
  if (inserted) await linkOrderToPartner(db, order.id, partner.id);
  return Boolean(inserted);
}

/** The order is the one that made its e-mail a partner's referral (DESIGN §4.29). */
export async function linkOrderToPartner(db: DB, orderId: string, partnerCodeId: string): Promise<void> {
  await db.updateTable("orders").set({ partner_code_id: partnerCodeId }).where("id", "=", orderId).execute();
}

/** The currency of the newest order with this e-mail (stored trimmed and lower-cased), or undefined when none has it. */
export async function latestOrderCurrency(db: DB, email: string) {
  const row = await db
    .selectFrom("orders")
    .select("currency")
    // E-mails are stored trimmed and lower-cased (a check on orders), so orders_email_idx serves this.
    .where("email", "=", email)
    .orderBy("created_at", "desc")
    .limit(1)
    .executeTakeFirst();
  return row?.currency;
}

/** The company and ИНН the client of this e-mail last put on an invoice (ADR 072), or undefined. */
export function lastInvoiceBuyer(db: DB, email: string) {
  return db
    .selectFrom("invoices")
    .innerJoin("orders", "orders.id", "invoices.order_id")
    .select(["invoices.client_company", "invoices.client_inn"])
    .where("orders.email", "=", email)
    .orderBy("invoices.created_at", "desc")
    .limit(1)
    .executeTakeFirst();
}
