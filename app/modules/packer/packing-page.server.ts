import { type ActionFunctionArgs, redirect } from "@remix-run/node";
import { z } from "zod";
import { requirePacker } from "~/modules/auth/guards.server";
import { getDb } from "~/modules/db/db.server";
import { textAnswer } from "~/modules/http/answers/answers.server";
import { getClientAddress, getLocale } from "~/modules/http/request/request-context.server";
import { badRequest } from "~/modules/http/answers/request.server";
import { readSubmission } from "~/modules/http/forms/submission.server";
import { redirectWithToast } from "~/modules/http/answers/toast.server";
import { logger } from "~/modules/log/logger.server";
import { statusLabelKey } from "~/modules/orders/status";
import { packerListUrl } from "./filter";
import { markPacked } from "./packing.server";
import { getPackerOrder } from "./packer.server";
import { unscannedCount } from "./bag-scans.server";

/** "Упаковано" from an order card (ADR 068): `POST /packer/packed/:orderId` with the list's query to come back to. */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const packedSchema = z.object({
  /** The list's query string, to come back to the same view, search and page. */
  back: z.string().max(1000).optional(),
});

export async function packedPageAction({ request, params, context }: ActionFunctionArgs) {
  await requirePacker(request, context, () => redirect("/packer"));
  const orderId = (params.orderId ?? "").toLowerCase();
  const submission = await readSubmission(request, context, packedSchema);
  if (submission.status !== "success" || !UUID.test(orderId)) throw await badRequest(request, context);
  const back = packerListUrl(submission.value.back?.replace(/^\?/, "") ?? null);
  let result;
  try {
    const db = await getDb();
    const order = await getPackerOrder(db, orderId);
    // The list's button gives no reason: it packs only an order whose bags are all scanned (ADR 103).
    const missing = order ? await unscannedCount(db, order) : 0;
    // The packer's station shares one password: it is recorded by the address it packs from.
    result = await markPacked(db, orderId, { kind: "staff", label: `packer (${getClientAddress(context)})` }, { missing });
  } catch (error) {
    logger.error("packer: the packing mark failed:", error);
    return redirectWithToast(back, { type: "error", title: "packer.toasts.error", description: "packer.packed.failed" });
  }
  if (!result.ok && result.reason === "not_found") throw await textAnswer((await getLocale(request, context)).language, 404);
  if (!result.ok && result.reason === "unscanned") return redirectWithToast(back, { type: "error", title: "packer.toasts.error", description: "packer.packed.unscanned", values: { count: result.missing } });
  if (!result.ok) return redirectWithToast(back, { type: "error", title: "packer.toasts.error", description: `packer.packed.${result.reason === "not_due" ? "notDue" : "already"}` });
  return redirectWithToast(back, {
    type: "success",
    title: "packer.packed.done",
    lines: [
      { key: "packer.packed.order", values: { number: result.number } },
      ...(result.to ? [{ key: "packer.packed.moved", values: { statusKey: statusLabelKey(result.to) } }] : []),
    ],
  });
}
