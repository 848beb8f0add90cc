import { type ActionFunctionArgs, data, type LoaderFunctionArgs, redirect } from "@remix-run/node";
import { z } from "zod";
import * as zm from "zod/mini";
import { readQuery, word } from "~/modules/http/request/list-query";
import { requirePacker } from "~/modules/auth/guards.server";
import { getDb } from "~/modules/db/db.server";
import { textAnswer } from "~/modules/http/answers/answers.server";
import { redirectWithToast } from "~/modules/http/answers/toast.server";
import { readSubmission } from "~/modules/http/forms/submission.server";
import { badRequest } from "~/modules/http/answers/request.server";
import { getClientAddress, getLocale, getRequestTranslator } from "~/modules/http/request/request-context.server";
import { logger } from "~/modules/log/logger.server";
import { statusLabelKey } from "~/modules/orders/status";
import { type ScanRefusal, type ScannedBag, bagsOf, scanBag } from "./bag-scans.server";
import { factsText } from "./facts-text";
import { TO_PACK } from "./filter";
import { readLabelFormat } from "./label-format.server";
import { getPackerOrder, type PackerOrder } from "./packer.server";
import { markPacked, packingsOf } from "./packing.server";

/**
 * The packer's order page (ADR 103): `/packer/order/:orderId` — one scan field a scanner types a bag's
 * code into, ending with Enter; each bag of the order with its tick; "Упаковано" once every bag is
 * ticked, or with a reason for those that are not. A scan is a plain POST: an accepted one comes back
 * to the page (POST-redirect-GET, `?ok=` naming the bag), a refused one answers 422 with the page as
 * it was and why. The page's inline script posts the same form in place and sounds the answer.
 */

const NO_STORE = { "Cache-Control": "no-store" };

/** `?ok=` names the bag just accepted, to say which one; anything else there says nothing. */
const pageQuery = zm.object({ ok: word });

export const scanSchema = z.object({
  intent: z.enum(["scan", "pack"]),
  /** What the scanner typed: one code, but a person may paste anything — it is only read, never echoed. */
  code: z.string().max(200).optional(),
  /** Why bags are missing when packing without them. */
  reason: z.string().max(500).optional(),
});

export type OrderPageReply =
  | { scan: "refused"; reason: ScanRefusal | "empty" }
  | { pack: "refused"; reason: "unscanned" | "not_due" | "already_packed" | "reason_too_long"; missing: number }
  | { failed: true };

const actorOf = (context: ActionFunctionArgs["context"]) => `packer (${getClientAddress(context)})`;

async function orderOr404(request: Request, context: LoaderFunctionArgs["context"], orderId: string): Promise<PackerOrder> {
  const order = await getPackerOrder(await getDb(), orderId);
  if (!order) throw await textAnswer((await getLocale(request, context)).language, 404);
  return order;
}

export async function loadPackerOrderPage({ request, params, context }: LoaderFunctionArgs) {
  await requirePacker(request, context);
  const order = await orderOr404(request, context, params.orderId ?? "");
  const db = await getDb();
  const t = await getRequestTranslator(request, context);
  const [bags, packings] = await Promise.all([bagsOf(db, order), packingsOf(db, [order.id])]);
  const describe = (bag: ScannedBag) => `${t(`packer.kinds.${bag.kind}`)} · ${factsText(t, { jaw: bag.jaw, step: bag.step === null ? null : Number(bag.step) })} · ${bag.patientName}`;
  const okCode = readQuery(request, pageQuery).ok;
  const last = okCode ? bags.find((bag) => bag.code === okCode && bag.scanned) : undefined;
  const packing = packings[0] ?? null;
  return data(
    {
      title: t("packer.order.title", { number: order.number }),
      id: order.id,
      number: order.number,
      labelFormat: await readLabelFormat(request, context),
      client: order.client,
      address: order.address,
      statusKey: statusLabelKey(order.status),
      packedAt: packing?.at ?? null,
      canPack: TO_PACK.includes(order.status) && !packing,
      bags: bags.map((bag) => ({ text: describe(bag), folder: bag.folderName, file: bag.fileName, scanned: bag.scanned })),
      scanned: bags.filter((bag) => bag.scanned).length,
      last: last ? describe(last) : null,
    },
    { headers: NO_STORE },
  );
}

export async function packerOrderPageAction({ request, params, context }: ActionFunctionArgs) {
  await requirePacker(request, context, () => redirect("/packer"));
  const submission = await readSubmission(request, context, scanSchema);
  if (submission.status !== "success") {
    // Only an over-long field fails the schema: a paste, not a scan.
    const intent = submission.payload.intent;
    if (intent === "scan") return data<OrderPageReply>({ scan: "refused", reason: "not_ours" }, { status: 422 });
    if (intent === "pack") return data<OrderPageReply>({ pack: "refused", reason: "reason_too_long", missing: 0 }, { status: 422 });
    throw await badRequest(request, context);
  }
  const order = await orderOr404(request, context, params.orderId ?? "");
  const db = await getDb();
  const { intent, code, reason } = submission.value;
  try {
    if (intent === "scan") {
      if (!code?.trim()) return data<OrderPageReply>({ scan: "refused", reason: "empty" }, { status: 422 });
      const result = await scanBag(db, order, code, actorOf(context));
      if (!result.ok) return data<OrderPageReply>({ scan: "refused", reason: result.reason }, { status: 422 });
      return redirect(`/packer/order/${order.id}?ok=${result.code}`, 303);
    }
    const missing = (await bagsOf(db, order)).filter((bag) => !bag.scanned).length;
    const result = await markPacked(db, order.id, { kind: "staff", label: actorOf(context) }, { missing, reason });
    if (!result.ok) {
      if (result.reason === "not_found") throw await textAnswer((await getLocale(request, context)).language, 404);
      return data<OrderPageReply>({ pack: "refused", reason: result.reason, missing }, { status: 422 });
    }
    return redirectWithToast("/packer", {
      type: "success",
      title: "packer.packed.done",
      lines: [
        { key: "packer.packed.order", values: { number: result.number } },
        ...(missing > 0 ? [{ key: "packer.packed.withMissing", values: { count: missing } }] : []),
        ...(result.to ? [{ key: "packer.packed.moved", values: { statusKey: statusLabelKey(result.to) } }] : []),
      ],
    });
  } catch (error) {
    if (error instanceof Response) throw error;
    logger.error("packer: a scan or packing mark failed:", error);
    return data<OrderPageReply>({ failed: true }, { status: 503 });
  }
}
