import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireStaff, safeRedirect } from "~/modules/auth/guards.server";
import { listOrderFiles } from "~/modules/backoffice/dashboard.server";
import { getDb } from "~/modules/db/db.server";
import { getRequestTranslator } from "~/modules/http/request-context.server";
import { findOrder, shortOrderNumber } from "~/modules/orders/orders.server";

export async function loadOrderFilesPage({ request, params, context }: LoaderFunctionArgs) {
  await requireStaff(request, context);
  const t = await getRequestTranslator(request, context);
  const db = await getDb();
  const order = await findOrder(db, params.orderId ?? "");
  if (!order) throw new Response("Not found", { status: 404 });
  const number = shortOrderNumber(order.id);
  return {
    title: t("bo.orders.files.title", { number }),
    back: safeRedirect(new URL(request.url).searchParams.get("back"), "/backoffice"),
    patients: await listOrderFiles(db, order.id),
  };
}
