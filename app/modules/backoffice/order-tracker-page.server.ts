import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { data } from "@remix-run/node";
import * as z from "zod/mini";
import { requireStaff } from "~/modules/auth/guards.server";
import { getConfig } from "~/modules/config/config.server";
import { publicOrigin } from "~/modules/market/market.server";
import { getDb } from "~/modules/db/db.server";
import { asSent, readQuery, word } from "~/modules/http/request/list-query";
import { redirectTarget } from "~/modules/http/request/redirect-target.server";
import { redirectWithToast } from "~/modules/http/answers/toast.server";
import { findOrder, shortOrderNumber } from "~/modules/orders/orders.server";
import { buildTrackerRequest, canSendToTracker } from "~/modules/tracker/order-request.server";
import { isTaskSignature, taskSignature } from "~/modules/tracker/signature.server";
import { getTaskTracker, type TrackerResult } from "~/modules/tracker/tracker.server";
import { logger } from "~/modules/log/logger.server";
import { getRequestTranslator } from "~/modules/http/request/request-context.server";

/** A value of the address as sent, null when absent: a return address may run long, a task id is the tracker's. */
/** Where the page returns to, and the task just created with its signature. */
const orderTrackerQuery = z.object({ back: asSent, task: asSent, sig: word });

const backTo = (request: Request, context: LoaderFunctionArgs["context"]) => redirectTarget(request, context, readQuery(request, orderTrackerQuery).back, "/backoffice");

async function orderFor(params: LoaderFunctionArgs["params"]) {
  const order = await findOrder(await getDb(), params.orderId ?? "");
  if (!order) throw new Response("Not found", { status: 404 });
  return order;
}

export async function loadOrderTrackerPage({ request, params, context }: LoaderFunctionArgs) {
  await requireStaff(request, context);
  const t = await getRequestTranslator(request, context);
  const order = await orderFor(params);
  const config = getConfig();
  const tracker = getTaskTracker(config);
  const base = { title: t("bo.tracker.title", { number: shortOrderNumber(order.id) }), number: shortOrderNumber(order.id), back: await backTo(request, context), enabled: tracker.enabled };
  if (!canSendToTracker(order.status)) return data({ ...base, state: "not_allowed" as const, status: order.status }, { status: 409 });

  let prepared;
  try {
    prepared = await buildTrackerRequest(await getDb(), order, { formId: config.pyrus?.formId ?? null, origin: publicOrigin(order.market) });
  } catch (error) {
    logger.error("tracker: preparing the request failed:", error);
    return data({ ...base, state: "prepare_failed" as const, message: error instanceof Error ? error.message : String(error) }, { status: 500 });
  }

  const { task: taskId, sig } = readQuery(request, orderTrackerQuery);
  if (taskId && isTaskSignature(config.secrets.SESSION_SECRET, order.id, taskId, sig)) {
    let result: TrackerResult | null = null;
    let message: string | null = null;
    try {
      result = await tracker.describe(prepared, taskId);
    } catch (error) {
      logger.error("tracker: reading the task failed:", error);
      message = error instanceof Error ? error.message : String(error);
    }
    return { ...base, state: "sent" as const, taskId, result, message, prepared };
  }
  return { ...base, state: "dry_run" as const, prepared };
}

export async function orderTrackerPageAction({ request, params, context }: ActionFunctionArgs) {
  await requireStaff(request, context);
  const order = await orderFor(params);
  const config = getConfig();
  const here = new URL(request.url);
  const back = await backTo(request, context);
  const dryRun = `${here.pathname}?back=${encodeURIComponent(back)}`;
  if (!canSendToTracker(order.status)) return redirectWithToast(back, { type: "error", title: "bo.tracker.sendFailed", description: "bo.tracker.notAllowed" });
  const tracker = getTaskTracker(config);
  if (!tracker.enabled) return redirectWithToast(dryRun, { type: "error", title: "bo.tracker.sendFailed", description: "bo.tracker.disabled" });

  let result: TrackerResult;
  try {
    const prepared = await buildTrackerRequest(await getDb(), order, { formId: config.pyrus?.formId ?? null, origin: publicOrigin(order.market) });
    result = await tracker.send(prepared);
  } catch (error) {
    logger.error("tracker: sending failed:", error);
    const message = error instanceof Error ? error.message : String(error);
    return redirectWithToast(dryRun, { type: "error", title: "bo.tracker.sendFailed", description: "bo.tracker.cause", values: { message } });
  }
  const sig = taskSignature(config.secrets.SESSION_SECRET, order.id, result.task.id);
  return redirectWithToast(`${here.pathname}?task=${encodeURIComponent(result.task.id)}&sig=${sig}&back=${encodeURIComponent(back)}`, {
    type: "success",
    title: "bo.tracker.sent",
    description: "bo.tracker.taskCreated",
    values: { id: result.task.id },
  });
}
