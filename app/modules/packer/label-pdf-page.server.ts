import type { LoaderFunctionArgs } from "@remix-run/node";
import { requirePacker } from "~/modules/auth/guards.server";
import { getDb } from "~/modules/db/db.server";
import { textAnswer } from "~/modules/http/answers/answers.server";
import { getLocale, getRequestTranslator } from "~/modules/http/request/request-context.server";
import { bagLabelsOf } from "./bag-scans.server";
import { bagLabelsPdf, boxLabelPdf } from "./label-pdf.server";
import { getPackerOrder } from "./packer.server";

/** `/packer/pdf/bags/:orderId` and `/packer/pdf/box/:orderId` (ADR 103): the labels as PDF, shown in the browser's viewer. */

async function pdfAnswer(pdf: Buffer, name: string) {
  return new Response(new Uint8Array(pdf), {
    headers: { "Content-Type": "application/pdf", "Content-Disposition": `inline; filename="${name}.pdf"`, "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff" },
  });
}

async function orderOf({ request, params, context }: LoaderFunctionArgs) {
  await requirePacker(request, context);
  const order = await getPackerOrder(await getDb(), params.orderId ?? "");
  if (!order) throw await textAnswer((await getLocale(request, context)).language, 404);
  return order;
}

export async function loadBagLabelsPdf(args: LoaderFunctionArgs) {
  const order = await orderOf(args);
  const t = await getRequestTranslator(args.request, args.context);
  const labels = bagLabelsOf(order);
  // No labels to print: the HTML page's words, as text.
  if (labels.length === 0) throw new Response(order.patients.length === 0 ? t("packer.noPatients") : t("packer.bags.noFiles"), { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });
  return pdfAnswer(await bagLabelsPdf(t("packer.bags.title", { number: order.number }), labels, t), `bags-${order.number}`);
}

export async function loadBoxLabelPdf(args: LoaderFunctionArgs) {
  const order = await orderOf(args);
  const t = await getRequestTranslator(args.request, args.context);
  const box = { number: order.number, client: order.client, address: order.address, patients: order.patients.length };
  return pdfAnswer(await boxLabelPdf(t("packer.box.title", { number: order.number }), box, bagLabelsOf(order), t), `box-${order.number}`);
}
