import type { LoaderFunctionArgs } from "@remix-run/node";
import { getDb } from "~/modules/db/db.server";
import { getPackerOrder, logoUrl } from "~/modules/packer/packer.server";
import { getRequestTranslator } from "~/modules/http/request/request-context.server";
import { requirePacker } from "~/modules/auth/guards.server";

export async function loadBoxLabelPage({ request, params, context }: LoaderFunctionArgs) {
  await requirePacker(request, context);
  const order = await getPackerOrder(await getDb(), params.orderId ?? "");
  if (!order) throw new Response("Not found", { status: 404 });
  const t = await getRequestTranslator(request, context);
  return {
    title: t("packer.box.title", { number: order.number }),
    logo: await logoUrl(order.email),
    number: order.number,
    client: order.client,
    address: order.address,
    patients: order.patients.length,
  };
}
