import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import type { Submission } from "@conform-to/react";
import type * as z from "zod/mini";
import { requireStaff } from "~/modules/auth/guards.server";
import type { Staff } from "~/modules/auth/staff";
import { type DB, getDb } from "~/modules/db/db.server";
import { intentHandler } from "~/modules/http/forms/intents";
import { intentValue, readSubmission, refused, submittedIntent } from "~/modules/http/forms/submission.server";
import { redirectWithToast } from "~/modules/http/answers/toast.server";
import { getRequestTranslator } from "~/modules/http/request/request-context.server";
import { assignMessage, markThreadRead, postMessage, readThread, resolveMessage } from "~/modules/messages/thread.server";
import { labThreadSchema, MESSAGE_TOO_MANY } from "~/modules/messages/thread";
import { findOrder, shortOrderNumber } from "~/modules/orders/orders.server";
import type { Order } from "~db/schema";
import { listStaffSuggestions } from "./roles.server";

/**
 * The order's thread in the back office (ADR 104), a tab of the order's own page: the messages
 * with the clinic and the lab's own notes, drawn apart; staff write to the clinic (a question, by
 * default, that makes the order wait for the clinic's answer) or a note, give a message to a staff
 * member and mark it resolved. Opening the page marks the clinic's messages read for the lab.
 */

const notFound = () => new Response("Not found", { status: 404 });

async function orderFor(db: DB, params: LoaderFunctionArgs["params"]) {
  const order = await findOrder(db, params.orderId ?? "");
  if (!order) throw notFound();
  return order;
}

const threadPath = (orderId: string) => `/backoffice/orders/${orderId}/thread`;

async function staffMembers(db: DB): Promise<string[]> {
  return (await listStaffSuggestions(db)).filter((member) => member.current).map((member) => member.email);
}

export async function loadOrderThreadPage({ request, params, context }: LoaderFunctionArgs) {
  await requireStaff(request, context);
  const db = await getDb();
  const order = await orderFor(db, params);
  const t = await getRequestTranslator(request, context);
  const [thread, staff] = await Promise.all([readThread(db, order.id, "lab"), staffMembers(db)]);
  if (thread.state.labUnread > 0) await markThreadRead(db, order.id, "lab");
  return {
    title: t("thread.bo.title", { number: shortOrderNumber(order.id) }),
    orderId: order.id,
    // The thread opens once the order has an address to answer to.
    open: order.email !== null,
    messages: thread.messages,
    state: thread.state,
    staff,
  };
}

interface ThreadIntentArgs {
  db: DB;
  staff: Staff;
  order: Order;
  submission: Submission<z.output<typeof labThreadSchema>, string[]>;
}

/** Too many messages in the hour: said at the field, with what was typed kept, and nothing stored. */
const tooMany = (submission: ThreadIntentArgs["submission"]) => refused(submission, undefined, 429, { body: [MESSAGE_TOO_MANY] });

async function message({ db, staff, order, submission }: ThreadIntentArgs) {
  const form = intentValue(submission, "message");
  if (!form) return refused(submission);
  if (order.email === null) return redirectWithToast(threadPath(order.id), { type: "error", title: "thread.toast.notSent", description: "thread.bo.noEmail" });
  const posted = await postMessage(db, { orderId: order.id, side: "lab", author: staff.actorLabel, body: form.body, asks: form.asks === "on" });
  if (!posted.ok) return tooMany(submission);
  return redirectWithToast(`${threadPath(order.id)}#message-${posted.id}`, { type: "success", title: "thread.toast.sent" });
}

async function note({ db, staff, order, submission }: ThreadIntentArgs) {
  const form = intentValue(submission, "note");
  if (!form) return refused(submission);
  const posted = await postMessage(db, { orderId: order.id, side: "lab", author: staff.actorLabel, body: form.body, labOnly: true });
  if (!posted.ok) return tooMany(submission);
  return redirectWithToast(`${threadPath(order.id)}#message-${posted.id}`, { type: "success", title: "thread.bo.toast.noted" });
}

async function assign({ db, order, submission }: ThreadIntentArgs) {
  const form = intentValue(submission, "assign");
  if (!form) throw new Response("Bad request", { status: 400 });
  const assignee = form.assignee === "" ? null : form.assignee;
  if (assignee !== null && !(await staffMembers(db)).includes(assignee)) {
    return redirectWithToast(threadPath(order.id), { type: "error", title: "thread.bo.toast.notAssigned", description: "thread.bo.toast.notStaff" });
  }
  if (!(await assignMessage(db, order.id, form.message, assignee))) return redirectWithToast(threadPath(order.id), { type: "error", title: "thread.bo.toast.notAssigned", description: "thread.bo.toast.noMessage" });
  return redirectWithToast(`${threadPath(order.id)}#message-${form.message}`, { type: "success", title: assignee ? "thread.bo.toast.assigned" : "thread.bo.toast.unassigned", values: { who: assignee ?? "" } });
}

async function resolve({ db, staff, order, submission }: ThreadIntentArgs) {
  const form = intentValue(submission, "resolve");
  if (!form) throw new Response("Bad request", { status: 400 });
  if (!(await resolveMessage(db, order.id, form.message, staff.actorLabel))) return redirectWithToast(threadPath(order.id), { type: "error", title: "thread.bo.toast.notResolved", description: "thread.bo.toast.noMessage" });
  return redirectWithToast(`${threadPath(order.id)}#message-${form.message}`, { type: "success", title: "thread.bo.toast.resolved" });
}

const THREAD_INTENTS = { message, note, assign, resolve };


export async function orderThreadPageAction({ request, params, context }: ActionFunctionArgs) {
  const staff = await requireStaff(request, context);
  const db = await getDb();
  const order = await orderFor(db, params);
  const submission = await readSubmission(request, context, labThreadSchema);
  const handler = intentHandler(THREAD_INTENTS, submittedIntent(submission));
  if (!handler) throw new Response("Unknown action", { status: 400 });
  return handler({ db, staff, order, submission });
}
