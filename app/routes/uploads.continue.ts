import type { ActionFunctionArgs } from "@remix-run/node";
import { sendSignInLink } from "~/modules/auth/authenticator.server";
import { getDb } from "~/modules/db/db.server";
import { readSubmission } from "~/modules/http/forms/submission.server";
import { continueElsewhereSchema } from "~/modules/uploads/forms";
import { redirectWithToast } from "~/modules/http/answers/toast.server";
import { getClientAddress, getLocale } from "~/modules/http/request/request-context.server";
import { openableOrder, uploadViewerOf } from "~/modules/uploads/tus-access.server";
import { textAnswer } from "~/modules/http/answers/answers.server";

/**
 * POST /uploads/continue {orderId}: "continue on another device" — a sign-in link to the order's
 * e-mail that leads back to this order (`/order?id=…`), for a doctor whose models are on another
 * computer. Answers with the spec's toasts ("Письмо отправлено" or the failure text).
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const submission = await readSubmission(request, context, continueElsewhereSchema);
  const { language, market } = await getLocale(request, context);
  const db = await getDb();
  const order = await openableOrder(db, await uploadViewerOf(request, context), (submission.status === "success" && submission.value.orderId) || "");
  if (!order) return textAnswer(language, 404);
  const back = `/order?id=${order.id}`;
  if (!order.email) return redirectWithToast(back, { type: "error", title: "uploads.device.failedTitle", description: "uploads.device.noEmail" });
  const result = await sendSignInLink(request, { email: order.email, redirectTo: back, market, language, clientIp: getClientAddress(context) });
  const headers = result.ok && result.setCookie ? { "Set-Cookie": result.setCookie } : undefined;
  return result.ok
    ? redirectWithToast(back, { type: "success", title: "uploads.device.sentTitle", description: "uploads.device.sentText" }, { headers })
    : redirectWithToast(back, { type: "error", title: "uploads.device.failedTitle", description: "uploads.device.failedText" });
}
