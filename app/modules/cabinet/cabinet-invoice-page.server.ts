import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/modules/auth/guards.server";
import { getDb } from "~/modules/db/db.server";
import { getRequestTranslator } from "~/modules/http/request/request-context.server";
import { findOrderInvoice, invoiceDocument } from "~/modules/payments/invoices.server";
import { cabinetOrderPath } from "~/modules/orders/cabinet-links";
import { clientOrder } from "~/modules/orders/client-order.server";

/**
 * A bank-transfer invoice in the cabinet, ready to print (ADR 072): only the signed-in client whose
 * order it is; another clinic's order, an invoice of another order or a malformed id is 404.
 */
export async function loadCabinetInvoicePage({ request, context, params }: LoaderFunctionArgs) {
  const user = await requireUser(request, context);
  const db = await getDb();
  const order = await clientOrder(db, user.email, params.orderId);
  const invoice = order ? await findOrderInvoice(db, order.id, params.invoiceId) : undefined;
  if (!order || !invoice) throw new Response("Not found", { status: 404 });
  const t = await getRequestTranslator(request, context);
  return {
    title: t("payments.invoice.pageTitle", { number: Number(invoice.number) }),
    back: cabinetOrderPath(order.id),
    invoice: invoiceDocument(invoice, order, { staff: false }),
  };
}
