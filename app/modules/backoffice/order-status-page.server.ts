import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { requireStaff, safeRedirect } from "~/modules/auth/guards.server";
import { staffChangeStatus } from "~/modules/backoffice/dashboard.server";
import { statusChangeSchema, statusRefusal } from "~/modules/backoffice/order-forms.server";
import { getDb } from "~/modules/db/db.server";
import { redirectWithToast } from "~/modules/http/toast.server";
import { shortOrderNumber } from "~/modules/orders/orders.server";
import { readSubmission, submittedText } from "~/modules/http/submission.server";
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
  const back = safeRedirect(submittedText(submission, "back"), "/backoffice");
  const orderId = params.orderId ?? "";
  if (submission.status !== "success") return redirectWithToast(back, { type: "error", title: "bo.orders.errors.statusTitle", description: statusRefusal(submission.error) });
  const { to, note, trackingNumber } = submission.value;
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
