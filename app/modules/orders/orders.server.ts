import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import type { Currency, MarketColumn, Order, OrderStatus } from "~db/schema";
import { type DB, inTransaction } from "~/modules/db/db.server";
import { reserveFreeCode } from "./order-codes.server";
import { claimUnpaidOrderTurn, type OrderSender } from "./order-senders.server";
import { orderIdWithCode } from "./order-codes";
import { type Actor, checkTransition, isPaid, UNDO_WINDOW_MINUTES, UNDOABLE_TARGETS } from "./status";
import type { Language } from "~/modules/i18n/languages";
import { normalizeEmail } from "~/modules/validation/email";
import { countOrderCreated, countOrderPaid } from "~/modules/metrics/count.server";

/** The order code names folders on the production file server: the first 4 characters of the id. */
/** Order numbers as shown: 4 characters in titles and cards, 6 in summaries and payments. */
export const shortOrderNumber = (orderId: string) => orderId.slice(0, 4).toUpperCase();
export const longOrderNumber = (orderId: string) => orderId.slice(0, 6).toUpperCase();


export interface NewOrderInput {
  market: MarketColumn;
  currency: Currency;
  email?: string | null;
  fullName?: string | null;
  phone?: string | null;
  address?: string | null;
  /** Lets tests and the seed create orders in the past. */
  createdAt?: Date;
  /** The wizard step the new draft opens at (the wizard's step 1 "next" creates it on step 2). */
  wizardStep?: number;
  /** The client's interface language, for the order's mails. */
  language?: Language;
  /** Who starts it over HTTP: the order counts against that sender's unpaid orders (ADR 082). */
  sender?: OrderSender;
  /** The contacts are a signed-in client's last ones, not typed: the draft stays untouched until a form saves them (ADR 082). */
  contactsPrefilled?: boolean;
}

/**
 * Creates a draft order with its order code reserved in the same transaction (DESIGN §4.6, ADR 038):
 * a free code is chosen first and the id made with it, so creation succeeds whenever any code is
 * free; OrderCodeExhaustedError when none is. With a sender, UnpaidOrdersExceeded when that sender
 * already holds its share of unpaid orders (ADR 082).
 */
export async function createOrder(db: DB, input: NewOrderInput, actor: Actor): Promise<Order> {
  const created = await db.transaction().execute(async (trx) => {
    if (input.sender) await claimUnpaidOrderTurn(trx, input.sender);
    const code = await reserveFreeCode(trx, { reservedAt: input.createdAt });
    const id = orderIdWithCode(code, randomUUID());
    const order = await trx
      .insertInto("orders")
      .values({
        id,
        code,
        status: "draft",
        market: input.market,
        currency: input.currency,
        email: normalizeEmail(input.email),
        full_name: input.fullName ?? null,
        phone: input.phone ?? null,
        address: input.address ?? null,
        language: input.language ?? null,
        started_from: input.sender?.from ?? null,
        started_by: input.sender?.by ?? null,
        contacts_prefilled: input.contactsPrefilled ?? false,
        ...(input.wizardStep !== undefined ? { wizard_step: input.wizardStep } : {}),
        ...(input.createdAt ? { created_at: input.createdAt, updated_at: input.createdAt } : {}),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await trx.updateTable("order_codes").set({ order_id: id }).where("code", "=", code).execute();
    await trx
      .insertInto("order_status_history")
      .values({ order_id: id, from_status: null, to_status: "draft", actor: actor.label, ...(input.createdAt ? { created_at: input.createdAt } : {}) })
      .execute();
    return order;
  });
  // Orders made now; backdated ones (the demo seed) are not news.
  if (!input.createdAt) countOrderCreated(created.market);
  return created;
}

export class OrderTransitionError extends Error {
  constructor(
    public readonly from: OrderStatus,
    public readonly to: OrderStatus,
    public readonly reason: string,
  ) {
    super(`Order cannot go from ${from} to ${to}: ${reason}`);
    this.name = "OrderTransitionError";
  }
}

export class OrderNotFoundError extends Error {
  constructor(public readonly orderId: string) {
    super(`Order ${orderId} not found`);
    this.name = "OrderNotFoundError";
  }
}

export interface StatusChange {
  order: Order;
  changed: boolean;
  /** The history entry of the change (null when nothing changed). */
  changeId: string | null;
}

/**
 * Moves an order to another status under a row lock and records who did it.
 * Asking for the status the order already has changes nothing (a webhook delivered twice).
 */
export async function changeOrderStatus(
  db: DB,
  orderId: string,
  to: OrderStatus,
  actor: Actor,
  details: { note?: string | null; trackingNumber?: string | null; carrier?: string | null; at?: Date } = {},
): Promise<StatusChange> {
  const change = await inTransaction(db, async (trx): Promise<StatusChange> => {
    const current = await trx.selectFrom("orders").selectAll().where("id", "=", orderId).forUpdate().executeTakeFirst();
    if (!current) throw new OrderNotFoundError(orderId);
    if (current.status === to) return { order: current, changed: false, changeId: null };
    const check = checkTransition(current.status, to, actor.kind, details);
    if (!check.ok) throw new OrderTransitionError(current.status, to, check.reason);
    const at = details.at ?? new Date();
    const order = await trx
      .updateTable("orders")
      .set({
        status: to,
        updated_at: at,
        ...(to === "paid" ? { paid_at: at } : {}),
        // Who started it matters only while it is unpaid (ADR 082).
        ...(to === "draft" || to === "pending" ? {} : { started_from: null, started_by: null }),
        ...(to === "shipped" ? { tracking_number: details.trackingNumber!.trim(), carrier: details.carrier ?? null } : {}),
      })
      .where("id", "=", orderId)
      .returningAll()
      .executeTakeFirstOrThrow();
    const entry = await trx
      .insertInto("order_status_history")
      .values({
        order_id: orderId,
        from_status: current.status,
        to_status: to,
        actor: actor.label,
        note: details.note?.trim() || null,
        tracking_number: to === "shipped" ? details.trackingNumber!.trim() : null,
        carrier: to === "shipped" ? (details.carrier ?? null) : null,
        created_at: at,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    return { order, changed: true, changeId: String(entry.id) };
  });
  if (change.changed && to === "paid" && !details.at) countOrderPaid(change.order.market);
  return change;
}

export type UndoResult = { ok: true; from: OrderStatus; to: OrderStatus } | { ok: false; reason: "not_found" | "not_undoable" | "too_late" };

/**
 * Undoes a staff change of an order's status (ADR 062): the order's latest change, made by staff to
 * one of `UNDOABLE_TARGETS`, within `UNDO_WINDOW_MINUTES`, and still the order's status. The order
 * goes back to where it was (a tracking number given with "shipped" goes with it), the undo is a
 * change of its own in the history (who and when), and neither sends a status mail: the undone
 * change's mail, still waiting out the window, is never sent.
 */
export async function undoStatusChange(db: DB, orderId: string, changeId: string, actor: Actor): Promise<UndoResult> {
  if (!isUuid(orderId) || !/^\d{1,18}$/.test(changeId)) return { ok: false, reason: "not_found" };
  return inTransaction(db, async (trx) => {
    const order = await trx.selectFrom("orders").selectAll().where("id", "=", orderId).forUpdate().executeTakeFirst();
    if (!order) return { ok: false, reason: "not_found" };
    const latest = await trx.selectFrom("order_status_history").selectAll().where("order_id", "=", orderId).orderBy("created_at", "desc").orderBy("id", "desc").limit(1).executeTakeFirst();
    // Identities come back as numbers or strings depending on the driver: compared as text.
    if (!latest || String(latest.id) !== changeId) return { ok: false, reason: "not_undoable" };
    if (latest.undoes !== null || latest.from_status === null || latest.to_status !== order.status || !UNDOABLE_TARGETS.includes(latest.to_status)) return { ok: false, reason: "not_undoable" };
    if (Date.now() - new Date(latest.created_at).getTime() > UNDO_WINDOW_MINUTES * 60_000) return { ok: false, reason: "too_late" };
    const back = latest.from_status;
    const leftShipping = latest.to_status === "shipped";
    const now = new Date();
    await trx
      .updateTable("orders")
      .set({ status: back, updated_at: now, ...(leftShipping ? { tracking_number: null, carrier: null } : {}) })
      .where("id", "=", orderId)
      .execute();
    // The undone change's mail is not sent (it waits out the window); the undo sends none.
    await trx.updateTable("order_status_history").set({ notified_at: sql<Date>`coalesce(notified_at, now())` }).where("id", "=", latest.id).execute();
    await trx
      .insertInto("order_status_history")
      .values({
        order_id: orderId,
        from_status: latest.to_status,
        to_status: back,
        actor: actor.label,
        note: null,
        tracking_number: back === "shipped" ? order.tracking_number : null,
        carrier: back === "shipped" ? order.carrier : null,
        undoes: latest.id,
        created_at: now,
        notified_at: now,
      })
      .execute();
    return { ok: true, from: latest.to_status, to: back };
  });
}

/** A column of `orders`: a reader names the few it needs (a row has some 40). */
export type OrderColumn = keyof Order & string;

/** Named columns of one order, or undefined. */
export async function orderColumns<C extends OrderColumn>(db: DB, orderId: string, columns: readonly C[]): Promise<Pick<Order, C> | undefined> {
  return (await db.selectFrom("orders").select(columns as readonly OrderColumn[]).where("id", "=", orderId).executeTakeFirst()) as Pick<Order, C> | undefined;
}

/** Named columns of one order, its row locked until the caller's transaction ends (`FOR UPDATE`). */
export async function lockOrderColumns<C extends OrderColumn>(trx: DB, orderId: string, columns: readonly C[]): Promise<Pick<Order, C> | undefined> {
  return (await trx.selectFrom("orders").select(columns as readonly OrderColumn[]).where("id", "=", orderId).forUpdate().executeTakeFirst()) as Pick<Order, C> | undefined;
}

/** How many orders there are, drafts included (the embedded database is seeded when it has none). */
export async function countOrders(db: DB): Promise<number> {
  const { count } = await db.selectFrom("orders").select(sql<number>`count(*)::int`.as("count")).executeTakeFirstOrThrow();
  return count;
}

/** The provider's id of the order's latest payment attempt, kept on the order. */
export async function recordPaymentId(db: DB, orderId: string, providerPaymentId: string | null): Promise<void> {
  await db.updateTable("orders").set({ payment_id: providerPaymentId }).where("id", "=", orderId).execute();
}

/** The newest pending orders, at most `limit` (the back-office's "refresh statuses" asks their providers). */
export async function latestPendingOrders(db: DB, limit: number): Promise<Order[]> {
  return db.selectFrom("orders").selectAll().where("status", "=", "pending").orderBy("created_at", "desc").limit(limit).execute();
}

/**
 * Deletes an order that never had a successful payment (DESIGN §4.7), its row locked while that is
 * checked, so a payment confirmed meanwhile waits and then finds no order. Queue entries and the order
 * code go by foreign keys; payment rows stay (their order id becomes null).
 */
export async function deleteNeverPaidRow(db: DB, orderId: string): Promise<"deleted" | "not_found" | "was_paid"> {
  return db.transaction().execute(async (trx) => {
    const locked = await lockOrderColumns(trx, orderId, ["id", "status", "paid_at"]);
    if (!locked) return "not_found" as const;
    const succeeded = await trx.selectFrom("payments").select("id").where("order_id", "=", orderId).where("status", "=", "succeeded").limit(1).executeTakeFirst();
    if (isPaid(locked.status) || locked.paid_at !== null || succeeded) return "was_paid" as const;
    await trx.deleteFrom("orders").where("id", "=", orderId).execute();
    return "deleted" as const;
  });
}

export async function findOrder(db: DB, orderId: string): Promise<Order | undefined> {
  if (!isUuid(orderId)) return undefined;
  return db.selectFrom("orders").selectAll().where("id", "=", orderId).executeTakeFirst();
}

export async function orderHistory(db: DB, orderId: string) {
  return db.selectFrom("order_status_history").selectAll().where("order_id", "=", orderId).orderBy("created_at").orderBy("id").execute();
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (value: string) => UUID.test(value);

