import * as z from "zod/mini";
import { textField } from "~/modules/validation/fields";
import { STAFF_TARGETS, STATUS_NOTE_MAX, TRACKING_NUMBER_MAX } from "./order-actions.server";

/**
 * The order card's forms on the back office's dashboard (staff side §4 "Orders"). They answer by a
 * toast on the page they came from (`back`), so the schemas stay on the server and a refusal is
 * the toast of its first message, in the order the fields are read: the status, the note, the
 * tracking number. Texts are refused, never cut.
 */
export const NOT_ALLOWED = "bo.orders.errors.notAllowed";
const back = z.optional(z.string());

export const statusChangeSchema = z.object({
  back,
  /** The status to move to; absent when the form undoes a change. */
  to: z.optional(z.enum(STAFF_TARGETS, { error: NOT_ALLOWED })),
  note: z.optional(textField(STATUS_NOTE_MAX)),
  trackingNumber: z.optional(textField(TRACKING_NUMBER_MAX)),
  /** The carrier of the tracking number (config/carriers.ts); checked against the configured list. */
  carrier: z.optional(z.string().check(z.maxLength(40))),
  /** "yes" from the confirmation of a change that skips a step (ADR 062). */
  confirm: z.optional(z.string()),
  /** The history entry of a change to undo (ADR 062). */
  undo: z.optional(z.string().check(z.regex(/^\d{1,18}$/, { error: "bo.orders.errors.notUndoable" }))),
});

/** The first reason a status change was refused, in the order the fields are read. */
export const statusRefusal = (error: Record<string, string[] | null> | null | undefined) => error?.to?.[0] ?? error?.note?.[0] ?? error?.trackingNumber?.[0] ?? error?.undo?.[0] ?? NOT_ALLOWED;

export const orderDeleteSchema = z.object({ back });

/**
 * The order's page: a bank transfer arrived for one of its invoices (ADR 072). The id is taken as sent:
 * a forged or another order's finds nothing, which the toast says.
 */
export const orderOverviewSchema = z.discriminatedUnion("intent", [z.object({ intent: z.literal("invoice_paid"), invoiceId: z._default(z.string(), "") })]);

/**
 * The dashboard's buttons: refreshing the payment statuses, and a payment link for one order (an
 * id that finds no order is said by the toast, as an unknown intent is).
 */
export const dashboardSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("refresh_payments") }),
  z.object({ intent: z.literal("payment_link"), orderId: z._default(z.string(), "") }),
  // The staff member's remembered view and folded statistics (ADR 067).
  z.object({ intent: z.literal("show_cards") }),
  z.object({ intent: z.literal("show_table") }),
  z.object({ intent: z.literal("fold_statistics") }),
  z.object({ intent: z.literal("unfold_statistics") }),
  // A card's status change, answered in place when refused (ADR 105).
  z.extend(statusChangeSchema, { intent: z.literal("status"), orderId: z._default(z.string(), "") }),
]);
