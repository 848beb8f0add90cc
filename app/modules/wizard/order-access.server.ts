import * as z from "zod/mini";
import type { Order } from "~db/schema";
import type { DB } from "~/modules/db/db.server";
import { asSent, readQuery } from "~/modules/http/request/list-query";
import type { Viewer } from "~/modules/http/request/request-context.server";
import { canOpenOrder } from "~/modules/orders/access";
import { findOrder } from "~/modules/orders/orders.server";
import type { Actor } from "~/modules/orders/status";

export function actorOf(viewer: Pick<Viewer, "user">, order: Pick<Order, "email">): Actor {
  if (viewer.user) return { kind: "customer", label: viewer.user.email };
  return { kind: "customer", label: order.email ?? "anonymous browser" };
}

const notFound = () => new Response("Not found", { status: 404 });

/** The order the address names, as sent: an empty `?id=` still names one (none may open it), not the cookie's. */
const orderAccessQuery = z.object({ id: asSent });

/**
 * The current order (DESIGN §4.4, §4.9): `?id=` when this browser, its signed-in user or staff may
 * open it (404 otherwise), else the order in the current-order cookie, else none yet.
 */
export async function resolveOrder(request: Request, db: DB, viewer: Viewer): Promise<{ order: Order | null; fromQuery: boolean }> {
  const openable = async (id: string) => {
    const order = await findOrder(db, id);
    const access = { browserOrderIds: viewer.browserOrderIds, userEmail: viewer.user?.email ?? null, isStaff: viewer.isStaff };
    return order && canOpenOrder(order, access) ? order : null;
  };
  const { id } = readQuery(request, orderAccessQuery);
  if (id !== null) {
    const order = await openable(id);
    if (!order) throw notFound();
    return { order, fromQuery: true };
  }
  const currentId = viewer.currentOrderId;
  if (!currentId) return { order: null, fromQuery: false };
  return { order: await openable(currentId), fromQuery: false };
}
