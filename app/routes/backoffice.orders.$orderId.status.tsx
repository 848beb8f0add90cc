import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { loadOrderStatusPage, orderStatusPageAction } from "~/modules/backoffice/order-status-page.server";

/**
 * Status changes from the order cards: processing, shipped (with a tracking number), completed
 * ("Выполнить") and cancelled (with a note), all through the state machine with the staff member
 * recorded in the history. Answers with a redirect back to the dashboard and a toast.
 */

/** The cards post here; a visit lands on the dashboard, filtered to this order. */
export async function loader(args: LoaderFunctionArgs) {
  return loadOrderStatusPage(args);
}

export async function action(args: ActionFunctionArgs) {
  return orderStatusPageAction(args);
}
