import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import * as z from "zod/mini";
import { requireStaff } from "~/modules/auth/guards.server";
import { deleteNeverPaidOrder } from "~/modules/backoffice/order-actions.server";
import { getConfig } from "~/modules/config/config.server";
import { getDb } from "~/modules/db/db.server";
import { asSent, readQuery } from "~/modules/http/request/list-query";
import { redirectTarget } from "~/modules/http/request/redirect-target.server";
import { redirectWithToast } from "~/modules/http/answers/toast.server";
import { findOrder, shortOrderNumber } from "~/modules/orders/orders.server";
import { isPaid } from "~/modules/orders/status";
import { getStorage } from "~/modules/storage/storage.server";
import { readSubmission, submittedText } from "~/modules/http/forms/submission.server";
import { orderDeleteSchema } from "./order-forms.server";
import { logger } from "~/modules/log/logger.server";
import { getRequestTranslator } from "~/modules/http/request/request-context.server";

/** Where the page returns to, as sent (a return address may run long); redirectTarget decides. */
const orderDeleteQuery = z.object({ back: asSent });

export async function loadOrderDeletePage({ request, params, context }: LoaderFunctionArgs) {
  await requireStaff(request, context);
  const t = await getRequestTranslator(request, context);
  const order = await findOrder(await getDb(), params.orderId ?? "");
  if (!order) throw new Response("Not found", { status: 404 });
  const back = await redirectTarget(request, context, readQuery(request, orderDeleteQuery).back, "/backoffice");
  return {
    title: t("bo.orders.delete.title", { number: shortOrderNumber(order.id) }),
    number: shortOrderNumber(order.id),
    status: order.status,
    client: order.full_name ?? order.email,
    total: order.total_cost === null ? null : Number(order.total_cost),
    currency: order.currency,
    wasPaid: isPaid(order.status) || order.paid_at !== null,
    back,
  };
}

export async function orderDeletePageAction({ request, params, context }: ActionFunctionArgs) {
  await requireStaff(request, context);
  const submission = await readSubmission(request, context, orderDeleteSchema);
  const back = await redirectTarget(request, context, submittedText(submission, "back"), "/backoffice");
  let result;
  try {
    result = await deleteNeverPaidOrder(await getDb(), getStorage(), getConfig(), params.orderId ?? "");
  } catch (error) {
    logger.error("back-office: deleting an order failed:", error);
    return redirectWithToast(back, { type: "error", title: "bo.toasts.error", description: "bo.orders.delete.unexpected" });
  }
  if (!result.ok) {
    const description = result.reason === "was_paid" ? "bo.orders.delete.wasPaid" : result.reason === "not_found" ? "bo.orders.errors.notFound" : "bo.orders.delete.failed";
    return redirectWithToast(back, { type: "error", title: "bo.toasts.error", description });
  }
  return redirectWithToast(back, {
    type: "success",
    title: "bo.orders.delete.done",
    description: result.filesLeft > 0 ? "bo.orders.delete.filesLeft" : "bo.orders.delete.doneText",
    values: { files: result.files },
  });
}
