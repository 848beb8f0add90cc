import type { ActionFunctionArgs, LoaderFunctionArgs, AppLoadContext } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import * as z from "zod/mini";
import type { Order } from "~db/schema";
import { getStaff } from "~/modules/auth/guards.server";
import { getConfig } from "~/modules/config/config.server";
import { publicOrigin } from "~/modules/market/market.server";
import { type DB, getDb } from "~/modules/db/db.server";
import { asSent, readQuery } from "~/modules/http/request/list-query";
import { getLocale, getViewer } from "~/modules/http/request/request-context.server";
import { redirectWithToast } from "~/modules/http/answers/toast.server";
import { textTranslator } from "~/modules/translations/overrides.server";
import { canOpenOrder } from "~/modules/orders/access";
import { changeOrderStatus, findOrder, longOrderNumber, OrderTransitionError } from "~/modules/orders/orders.server";
import { isPaid } from "~/modules/orders/status";
import { canHavePaymentLink, isValidPaymentLinkToken, paymentResultPath } from "~/modules/payments/payment-links.server";
import { laterPaymentLines, linesForAmount, paymentFailureToast, providerTexts, startPayment } from "~/modules/payments/payments.server";
import { readSubmission } from "~/modules/http/forms/submission.server";
import { openInvoiceNote, orderInvoices } from "~/modules/payments/invoices.server";
import { payButtonSchema } from "./forms";

/** The payment link's token (`?t=`), as sent: the page hands it back to its pay button. */
const payQuery = z.object({ t: asSent });

async function openOrder(request: Request, context: AppLoadContext, db: DB, orderId: string | undefined, token: string | null) {
  const order = await findOrder(db, orderId ?? "");
  if (!order) throw new Response("Not found", { status: 404 });
  const viaToken = isValidPaymentLinkToken(getConfig(), order.id, token);
  if (!viaToken) {
    const { user, browserOrderIds } = await getViewer(request, context);
    const staff = await getStaff(request, context);
    if (
      !canOpenOrder(order, {
        browserOrderIds,
        userEmail: user?.email ?? null,
        isStaff: Boolean(staff),
      })
    )
      throw new Response("Not found", { status: 404 });
    return {
      order,
      viaToken,
      actorLabel: staff?.actorLabel ?? user?.email ?? order.email ?? "payment page",
    };
  }
  return { order, viaToken, actorLabel: order.email ?? "payment link" };
}

const payable = (order: Order) => canHavePaymentLink(order);

export async function loadPayPage({ request, params, context }: LoaderFunctionArgs) {
  const token = readQuery(request, payQuery).t;
  const db = await getDb();
  const { order } = await openOrder(request, context, db, params.orderId, token);
  const total = Number(order.total_cost ?? 0);
  const t = await textTranslator((await getLocale(request, context)).language);
  // Worded in the reader's language from each line's key; amounts as the provider gets them.
  const lines = (total > 0 ? linesForAmount(order.id, total, await laterPaymentLines(db, order), await providerTexts(order)) : []).map(({ description, quantity, price, text }) => ({
    description: text ? t(text.key, text.values) : description,
    quantity,
    price,
  }));
  // A transfer may be on its way: the invoice is named beside the card payment (ADR 072).
  const openInvoice = payable(order) && order.market === "domestic" ? openInvoiceNote(await orderInvoices(db, order.id), order) : null;
  return {
    orderId: order.id,
    number: longOrderNumber(order.id),
    openInvoice,
    status: order.status,
    recipient: order.full_name,
    address: order.address,
    market: order.market,
    currency: order.currency,
    total,
    lines,
    paid: isPaid(order.status),
    payable: payable(order),
    token: token ?? "",
  };
}

export async function payPageAction({ request, params, context }: ActionFunctionArgs) {
  const submission = await readSubmission(request, context, payButtonSchema);
  const token = (submission.status === "success" && submission.value.t) || readQuery(request, payQuery).t;
  const db = await getDb();
  const config = getConfig();
  const { order, viaToken, actorLabel } = await openOrder(request, context, db, params.orderId, token);
  const back = `/pay/${order.id}${token ? `?t=${encodeURIComponent(token)}` : ""}`;
  if (isPaid(order.status)) return redirect(paymentResultPath(config, order.id));
  if (!payable(order))
    return redirectWithToast(back, {
      type: "error",
      title: "payments.errors.title",
      description: Number(order.total_cost ?? 0) > 0 ? "payments.link.notPayable" : "payments.errors.noAmount",
    });
  if (order.status === "draft") {
    try {
      await changeOrderStatus(db, order.id, "pending", {
        kind: "customer",
        label: actorLabel,
      });
    } catch (error) {
      if (!(error instanceof OrderTransitionError)) throw error;
      return redirectWithToast(back, {
        type: "error",
        title: "payments.errors.title",
        description: "payments.link.notPayable",
      });
    }
  }
  const pending = (await findOrder(db, order.id))!;
  const result = await startPayment(db, config, { order: pending, lines: await laterPaymentLines(db, pending), origin: publicOrigin(pending.market) });
  // Without the link's token, the order's own signed-in client (or staff) pays from the cabinet.
  if (!result.ok) return redirectWithToast(back, paymentFailureToast(result.reason, viaToken ? "wizard" : "cabinet"));
  // The link lets this browser pay this order and nothing more: the return page's own token shows the
  // result, and the order is not added to the browser's orders (ADR 031).
  return redirect(result.redirectTo);
}
