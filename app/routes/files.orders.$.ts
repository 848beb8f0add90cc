import type { LoaderFunctionArgs } from "@remix-run/node";
import { Readable } from "node:stream";
import { getDb } from "~/modules/db/db.server";
import { getStorage } from "~/modules/storage/storage.server";
import { openableOrder, uploadViewerOf } from "~/modules/uploads/tus-access.server";
import { textAnswer } from "~/modules/http/answers/answers.server";
import { getLocale } from "~/modules/http/request/request-context.server";

/**
 * GET /files/orders/{storagePath}: a stored model of an order (FileInfo.url), streamed, for the
 * 3D preview. The key names its order (`order_{id}/…`); only who may open that order gets it.
 * The PLY or OBJ a doctor sent is served too, beside the STL made from it (ADR 102).
 */
const CONTENT_TYPES: Record<string, string> = { stl: "model/stl", ply: "application/x-ply", obj: "model/obj" };

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const key = params["*"] ?? "";
  const orderId = /^order_([0-9a-f-]{36})\//.exec(key)?.[1];
  const notFound = async () => textAnswer((await getLocale(request, context)).language, 404);
  const contentType = CONTENT_TYPES[/\.(stl|ply|obj)$/.exec(key)?.[1] ?? ""];
  if (!orderId || !contentType) return notFound();
  if (!(await openableOrder(await getDb(), await uploadViewerOf(request, context), orderId))) return notFound();
  let object;
  try {
    object = await getStorage().get("orders", key);
  } catch {
    return notFound(); // an invalid key
  }
  if (!object) return notFound();
  return new Response(Readable.toWeb(object.body) as ReadableStream, {
    headers: {
      "Content-Type": contentType,
      "Content-Length": String(object.size),
      "Cache-Control": "private, no-store",
      "Content-Disposition": "attachment",
    },
  });
}
