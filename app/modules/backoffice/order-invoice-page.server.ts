import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireStaff } from "~/modules/auth/guards.server";
import { getDb } from "~/modules/db/db.server";
import { getRequestTranslator } from "~/modules/http/request/request-context.server";
import { findOrder } from "~/modules/orders/orders.server";
import { findOrderInvoice, invoiceDocument } from "~/modules/payments/invoices.server";

/**
 * An order's bank-transfer invoice in the back office (ADR 072): the page the clinic prints, with who
 * recorded its transfer and when. Staff only, whoever's order it is; an invoice of another order, or a
 * malformed id, is 404.
 */
export async function loadOrderInvoicePage({ request, params, context }: LoaderFunctionArgs) {
  await requireStaff(request, context);
  const db = await getDb();
  const order = await findOrder(db, params.orderId ?? "");
  const invoice = order ? await findOrderInvoice(db, order.id, params.invoiceId) : undefined;
  if (!order || !invoice) throw new Response("Not found", { status: 404 });
  const t = await getRequestTranslator(request, context);
  return {
    title: t("payments.invoice.pageTitle", { number: Number(invoice.number) }),
    back: `/backoffice/orders/${order.id}`,
    invoice: invoiceDocument(invoice, order, { staff: true }),
  };
}
