import type { AppLoadContext } from "@remix-run/node";
import type { Order } from "~db/schema";
import type { DB } from "~/modules/db/db.server";
import { getViewer } from "~/modules/http/request/request-context.server";
import { canOpenOrder } from "~/modules/orders/access";
import { findOrder } from "~/modules/orders/orders.server";

/**
 * Who may upload to, poll or download the files of an order: the same rule as the wizard page
 * (DESIGN §4.4) — the browser that created it, a signed-in user with its e-mail, or staff. The
 * resource routes of uploads answer 404 to anyone else, as if the order did not exist.
 */
export interface UploadViewer {
  userEmail: string | null;
  isStaff: boolean;
  browserOrderIds: string[];
}

export async function uploadViewerOf(request: Request, context: AppLoadContext | undefined): Promise<UploadViewer> {
  const { user, isStaff, browserOrderIds } = await getViewer(request, context);
  return { userEmail: user?.email ?? null, isStaff, browserOrderIds };
}

/** The order when this viewer may open it, else undefined. */
export async function openableOrder(db: DB, viewer: UploadViewer, orderId: string): Promise<Order | undefined> {
  const order = await findOrder(db, orderId);
  if (!order || !canOpenOrder(order, viewer)) return undefined;
  return order;
}
