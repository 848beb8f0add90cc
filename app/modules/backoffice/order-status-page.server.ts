import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { requireStaff } from "~/modules/auth/guards.server";
import { applyStatusChange } from "~/modules/backoffice/status-change.server";
import { statusChangeSchema, statusRefusal } from "~/modules/backoffice/order-forms.server";
import { redirectWithToast } from "~/modules/http/answers/toast.server";
import { readSubmission, submittedText } from "~/modules/http/forms/submission.server";
import { redirectTarget } from "~/modules/http/request/redirect-target.server";

export async function loadOrderStatusPage({ request, params, context }: LoaderFunctionArgs) {
  await requireStaff(request, context);
  return redirect(`/backoffice?q=${encodeURIComponent((params.orderId ?? "").slice(0, 8))}&empty=1`);
}


export async function orderStatusPageAction({ request, params, context }: ActionFunctionArgs) {
  const staff = await requireStaff(request, context);
  const submission = await readSubmission(request, context, statusChangeSchema);
  const back = await redirectTarget(request, context, submittedText(submission, "back"), "/backoffice");
  const orderId = params.orderId ?? "";
  const failed = (description: string) => redirectWithToast(back, { type: "error", title: "bo.orders.errors.statusTitle", description });
  if (submission.status !== "success") return failed(statusRefusal(submission.error));
  const answer = await applyStatusChange(orderId, submission.value, staff.actorLabel, back);
  return typeof answer === "string" ? failed(answer) : answer;
}

