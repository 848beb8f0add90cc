import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { requireStaff, safeRedirect } from "~/modules/auth/guards.server";
import { isStaffTarget, STATUS_NOTE_MAX, staffChangeStatus, TRACKING_NUMBER_MAX } from "~/modules/backoffice/dashboard.server";
import { getDb } from "~/modules/db/db.server";
import { redirectWithToast } from "~/modules/http/toast.server";
import { shortOrderNumber } from "~/modules/orders/orders.server";
import { readFormData } from "~/modules/http/request.server";
import { textProblem } from "~/modules/validation/text";
import { logger } from "~/modules/log/logger.server";

const FAILURES = {
  not_found: "bo.orders.errors.notFound",
  not_allowed: "bo.orders.errors.notAllowed",
  actor_not_allowed: "bo.orders.errors.notAllowed",
  note_required: "bo.orders.errors.noteRequired",
  tracking_required: "bo.orders.errors.trackingRequired",
} as const;

export async function loadOrderStatusPage({ request, params, context }: LoaderFunctionArgs) {
  await requireStaff(request, context);
  return redirect(`/backoffice?q=${encodeURIComponent((params.orderId ?? "").slice(0, 8))}&empty=1`);
}

export async function orderStatusPageAction({ request, params, context }: ActionFunctionArgs) {
  const staff = await requireStaff(request, context);
  const form = await readFormData(request, context);
  const back = safeRedirect(form.get("back"), "/backoffice");
  const to = form.get("to");
  const orderId = params.orderId ?? "";
  if (!isStaffTarget(to)) return redirectWithToast(back, { type: "error", title: "bo.orders.errors.statusTitle", description: "bo.orders.errors.notAllowed" });
  const note = typeof form.get("note") === "string" ? String(form.get("note")) : null;
  const trackingNumber = typeof form.get("trackingNumber") === "string" ? String(form.get("trackingNumber")) : null;
  // A forbidden character or a text over its limit is refused, never cut (nothing lost silently).
  const problem = textProblem((note ?? "").trim(), STATUS_NOTE_MAX) ?? textProblem((trackingNumber ?? "").trim(), TRACKING_NUMBER_MAX);
  if (problem) return redirectWithToast(back, { type: "error", title: "bo.orders.errors.statusTitle", description: problem });
  let result;
  try {
    result = await staffChangeStatus(await getDb(), orderId, to, staff.actorLabel, { note, trackingNumber });
  } catch (error) {
    logger.error("back-office: status change failed:", error);
    return redirectWithToast(back, { type: "error", title: "bo.orders.errors.statusTitle", description: "bo.orders.errors.statusFailed" });
  }
  if (!result.ok) return redirectWithToast(back, { type: "error", title: "bo.orders.errors.statusTitle", description: FAILURES[result.reason] });
  return redirectWithToast(back, {
    type: "success",
    title: "bo.toasts.done",
    lines: [{ key: "bo.orders.statusChanged", values: { number: shortOrderNumber(orderId), statusKey: `orderStatus.${to}` } }],
  });
}
