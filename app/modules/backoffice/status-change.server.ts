import { data } from "@remix-run/node";
import type { Submission } from "@conform-to/react";
import type * as z from "zod/mini";
import { staffChangeStatus } from "~/modules/backoffice/order-actions.server";
import { NOT_ALLOWED, type statusChangeSchema } from "~/modules/backoffice/order-forms.server";
import { getDb } from "~/modules/db/db.server";
import { redirectWithToast } from "~/modules/http/answers/toast.server";
import { shortOrderNumber, undoStatusChange } from "~/modules/orders/orders.server";
import { UNDO_WINDOW_MINUTES, UNDOABLE_TARGETS } from "~/modules/orders/status";
import { getConfig } from "~/modules/config/config.server";
import { submittedText } from "~/modules/http/forms/submission.server";
import { logger } from "~/modules/log/logger.server";

/**
 * A staff member's change of an order's status, posted from an order's card: to the status route
 * (answered by a toast, as undo links are) or to the page the card is on (answered in place when
 * refused, ADR 105). One way to make the change for both.
 */

const FAILURES = {
  not_found: "bo.orders.errors.notFound",
  not_allowed: "bo.orders.errors.notAllowed",
  actor_not_allowed: "bo.orders.errors.notAllowed",
  note_required: "bo.orders.errors.noteRequired",
  tracking_required: "bo.orders.errors.trackingRequired",
  confirm_jump: "bo.orders.errors.confirmJump",
} as const;

/**
 * A status change posted to the page its card is on (the dashboard, ADR 105): made, it goes back to
 * that page with its toast; refused, the page answers 400 with the form's reply (what was typed and
 * why), which the order's card shows in its form.
 */
export async function statusChangeOnPage(submission: Submission<unknown, string[]>, value: (StatusChange & { orderId: string }) | null, actorLabel: string, back: string) {
  const orderId = submittedText(submission, "orderId") ?? "";
  const reply = (formError?: string) => data({ statusReply: { orderId, reply: submission.reply(formError ? { formErrors: [formError] } : undefined) } }, { status: 400 });
  if (!value) return reply();
  const answer = await applyStatusChange(value.orderId, value, actorLabel, back);
  return typeof answer === "string" ? reply(answer) : answer;
}

type StatusChange = z.infer<typeof statusChangeSchema>;

/** What a page answers when a card's status change was refused: the card's order and the form's reply. */
export type StatusReplyAnswer = Exclude<Awaited<ReturnType<typeof statusChangeOnPage>>, Response>;

/** One staff change of an order's status (or its undo): the redirect back with its toast when made, else the reason refused (a translation key). */
export async function applyStatusChange(orderId: string, value: StatusChange, actorLabel: string, back: string): Promise<Response | string> {
  const { to, note, trackingNumber, carrier, confirm, undo } = value;
  const config = getConfig();
  if (undo) return undoChange(orderId, undo, actorLabel, back);
  if (!to) return NOT_ALLOWED;
  if (carrier && !config.carriers.some((item) => item.id === carrier)) return "bo.orders.errors.unknownCarrier";
  let result;
  try {
    result = await staffChangeStatus(await getDb(), orderId, to, actorLabel, { note, trackingNumber, carrier, confirmed: confirm === "yes", confirmJumps: config.confirmStatusJumps });
  } catch (error) {
    logger.error("back-office: status change failed:", error);
    return "bo.orders.errors.statusFailed";
  }
  if (!result.ok) return FAILURES[result.reason];
  return redirectWithToast(back, {
    type: "success",
    title: "bo.toasts.done",
    lines: [
      { key: "bo.orders.statusChanged", values: { number: shortOrderNumber(orderId), statusKey: `orderStatus.${to}` } },
      ...(result.changeId && UNDOABLE_TARGETS.includes(to) ? [{ key: "bo.orders.undoHint", values: { minutes: UNDO_WINDOW_MINUTES } }] : []),
    ],
    // The change can be undone from the toast for a while, and from the order's history (ADR 062).
    ...(result.changeId && UNDOABLE_TARGETS.includes(to) ? { action: { label: "bo.orders.undo", url: `/backoffice/orders/${orderId}/status`, fields: { undo: result.changeId, back } } } : {}),
  });
}

/** "Вернуть": the order goes back to where it was before the change (ADR 062). */
async function undoChange(orderId: string, changeId: string, actorLabel: string, back: string) {
  let result;
  try {
    result = await undoStatusChange(await getDb(), orderId, changeId, { kind: "staff", label: actorLabel });
  } catch (error) {
    logger.error("back-office: undoing a status change failed:", error);
    return redirectWithToast(back, { type: "error", title: "bo.orders.errors.statusTitle", description: "bo.orders.errors.statusFailed" });
  }
  if (!result.ok) return redirectWithToast(back, { type: "error", title: "bo.orders.errors.statusTitle", description: result.reason === "not_found" ? "bo.orders.errors.notFound" : "bo.orders.errors.notUndoable" });
  return redirectWithToast(back, {
    type: "info",
    title: "bo.toasts.done",
    lines: [{ key: "bo.orders.undone", values: { number: shortOrderNumber(orderId), statusKey: `orderStatus.${result.to}` } }],
  });
}
