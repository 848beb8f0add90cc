import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { requireStaff } from "~/modules/auth/guards.server";
import { staffChangeStatus } from "~/modules/backoffice/order-actions.server";
import { NOT_ALLOWED, statusChangeSchema, statusRefusal } from "~/modules/backoffice/order-forms.server";
import { getDb } from "~/modules/db/db.server";
import { redirectWithToast } from "~/modules/http/answers/toast.server";
import { shortOrderNumber, undoStatusChange } from "~/modules/orders/orders.server";
import { UNDO_WINDOW_MINUTES, UNDOABLE_TARGETS } from "~/modules/orders/status";
import { getConfig } from "~/modules/config/config.server";
import { readSubmission, submittedText } from "~/modules/http/forms/submission.server";
import { redirectTarget } from "~/modules/http/request/redirect-target.server";
import { logger } from "~/modules/log/logger.server";

const FAILURES = {
  not_found: "bo.orders.errors.notFound",
  not_allowed: "bo.orders.errors.notAllowed",
  actor_not_allowed: "bo.orders.errors.notAllowed",
  note_required: "bo.orders.errors.noteRequired",
  tracking_required: "bo.orders.errors.trackingRequired",
  confirm_jump: "bo.orders.errors.confirmJump",
} as const;

export async function loadOrderStatusPage({ request, params, context }: LoaderFunctionArgs) {
  await requireStaff(request, context);
  return redirect(`/backoffice?q=${encodeURIComponent((params.orderId ?? "").slice(0, 8))}&empty=1`);
}

export async function orderStatusPageAction({ request, params, context }: ActionFunctionArgs) {
  const staff = await requireStaff(request, context);
  const submission = await readSubmission(request, context, statusChangeSchema);
  const back = await redirectTarget(request, context, submittedText(submission, "back"), "/backoffice");
  const orderId = params.orderId ?? "";
  if (submission.status !== "success") return redirectWithToast(back, { type: "error", title: "bo.orders.errors.statusTitle", description: statusRefusal(submission.error) });
  const { to, note, trackingNumber, carrier, confirm, undo } = submission.value;
  const config = getConfig();
  const failed = (description: string) => redirectWithToast(back, { type: "error", title: "bo.orders.errors.statusTitle", description });
  if (undo) return undoChange(orderId, undo, staff.actorLabel, back);
  if (!to) return failed(NOT_ALLOWED);
  if (carrier && !config.carriers.some((item) => item.id === carrier)) return failed("bo.orders.errors.unknownCarrier");
  let result;
  try {
    result = await staffChangeStatus(await getDb(), orderId, to, staff.actorLabel, { note, trackingNumber, carrier, confirmed: confirm === "yes", confirmJumps: config.confirmStatusJumps });
  } catch (error) {
    logger.error("back-office: status change failed:", error);
    return failed("bo.orders.errors.statusFailed");
  }
  if (!result.ok) return failed(FAILURES[result.reason]);
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
