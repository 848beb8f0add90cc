import type { LoaderFunctionArgs } from "@remix-run/node";
import * as z from "zod/mini";
import { asSent, readQuery } from "~/modules/http/request/list-query";
import { getDb } from "~/modules/db/db.server";
import { openableOrder, uploadViewerOf } from "~/modules/uploads/tus-access.server";
import { queueStatuses } from "~/modules/orders/files.server";
import { jsonAnswer } from "~/modules/http/answers/answers.server";
import { getLocale } from "~/modules/http/request/request-context.server";

/**
 * GET /uploads/status?order={id}: the production file server status of each file of an order
 * ({ files: { [storagePath]: "pending" | "uploading" | "completed" | "failed" } }), polled by the
 * upload step so the labels change without a reload. 404 for anyone who may not open the order.
 */
/** The order whose files are asked about. */
const statusQuery = z.object({ order: z.pipe(asSent, z.transform((value) => value ?? "")) });

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { order: orderId } = readQuery(request, statusQuery);
  const db = await getDb();
  const order = await openableOrder(db, await uploadViewerOf(request, context), orderId);
  if (!order) return jsonAnswer((await getLocale(request, context)).language, 404, { error: "not found" });
  return Response.json({ files: await queueStatuses(db, order.id) }, { headers: { "Cache-Control": "no-store" } });
}
