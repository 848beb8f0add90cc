import { type NotificationChannel, ORDER_STATUSES, type OrderStatus } from "~db/schema";

/**
 * The order state machine (DESIGN §4.1–4.3). Pure: no database, usable on both sides.
 * Every change goes through `checkTransition`; orders.server.ts applies it with history.
 */

export { ORDER_STATUSES, type OrderStatus };

/** The statuses a client can filter the cabinet's orders by: drafts are never listed there. */
export const CABINET_STATUSES: OrderStatus[] = ORDER_STATUSES.filter((status) => status !== "draft");

/** How a client can choose to hear of their orders' changes (the cabinet's form). */
export const NOTIFICATION_CHANNELS: NotificationChannel[] = ["email", "whatsapp", "none"];

/** Who asks for a change. `payment` means a payment verified with the provider. */
export type ActorKind = "customer" | "staff" | "payment" | "system";

export interface Actor {
  kind: ActorKind;
  /** Recorded in history: the user's e-mail, "back-office password (ip)", a provider name… */
  label: string;
}

interface Rule {
  from: OrderStatus;
  to: OrderStatus;
  by: readonly ActorKind[];
  requires?: "note" | "trackingNumber";
}

export const TRANSITIONS: readonly Rule[] = [
  { from: "draft", to: "pending", by: ["customer", "staff"] },
  { from: "pending", to: "draft", by: ["customer", "staff"] },
  { from: "pending", to: "paid", by: ["payment"] },
  { from: "paid", to: "processing", by: ["staff"] },
  { from: "processing", to: "shipped", by: ["staff"], requires: "trackingNumber" },
  { from: "shipped", to: "completed", by: ["staff"] },
  { from: "paid", to: "completed", by: ["staff"] },
  { from: "processing", to: "completed", by: ["staff"] },
  { from: "draft", to: "cancelled", by: ["staff"] },
  { from: "pending", to: "cancelled", by: ["staff"] },
  { from: "paid", to: "cancelled", by: ["staff"], requires: "note" },
  { from: "processing", to: "cancelled", by: ["staff"], requires: "note" },
];

/** Orders that were paid for: rewards, client sums, "ever paid" marks, statistics. */
export const PAID_SET: readonly OrderStatus[] = ["paid", "processing", "shipped", "completed"];
/** Orders that make an e-mail an existing customer (no new-customer discount). */
export const EXISTING_CUSTOMER_SET: readonly OrderStatus[] = ["pending", ...PAID_SET];
/** Composition and total are frozen outside draft (DESIGN §4.3). */
export const EDITABLE_STATUSES: readonly OrderStatus[] = ["draft"];

export const isPaid = (status: OrderStatus) => PAID_SET.includes(status);
export const isEditable = (status: OrderStatus) => EDITABLE_STATUSES.includes(status);
/** "Pay order" shows only for a pending order with something to pay. */
export const canPay = (status: OrderStatus, totalCost: number | null) => status === "pending" && (totalCost ?? 0) > 0;

export type TransitionCheck =
  | { ok: true }
  | { ok: false; reason: "not_allowed" | "actor_not_allowed" | "note_required" | "tracking_required" };

export function checkTransition(
  from: OrderStatus,
  to: OrderStatus,
  actor: ActorKind,
  details: { note?: string | null; trackingNumber?: string | null } = {},
): TransitionCheck {
  const rule = TRANSITIONS.find((candidate) => candidate.from === from && candidate.to === to);
  if (!rule) return { ok: false, reason: "not_allowed" };
  if (!rule.by.includes(actor)) return { ok: false, reason: "actor_not_allowed" };
  if (rule.requires === "note" && !details.note?.trim()) return { ok: false, reason: "note_required" };
  if (rule.requires === "trackingNumber" && !details.trackingNumber?.trim()) return { ok: false, reason: "tracking_required" };
  return { ok: true };
}

/**
 * A change that skips a step of the way (paid → completed, processing → completed) or ends the
 * order: where the lab asks for it (CONFIRM_STATUS_JUMPS, ADR 062), staff confirm it first.
 */
export const isJump = (from: OrderStatus, to: OrderStatus): boolean => to === "cancelled" || (to === "completed" && from !== "shipped");

/** Staff's changes that can be undone for a while (ADR 062): the lab's own steps, never a payment's or the client's. */
export const UNDOABLE_TARGETS: readonly OrderStatus[] = ["processing", "shipped", "completed", "cancelled"];
/** How long a staff change can be undone; its status mail waits as long (notifications/status-mail.server.ts). */
export const UNDO_WINDOW_MINUTES = 10;

/** Statuses an actor may move an order to from its current status (for buttons). */
export function nextStatuses(from: OrderStatus, actor: ActorKind): OrderStatus[] {
  return TRANSITIONS.filter((rule) => rule.from === from && rule.by.includes(actor)).map((rule) => rule.to);
}

/** Translation key of a status label ("Ожидает оплаты", "В работе"…). */
export const statusLabelKey = (status: OrderStatus) => `orderStatus.${status}` as const;
