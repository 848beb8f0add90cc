import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, useLoaderData, useNavigation } from "@remix-run/react";
import type { Order } from "~db/schema";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { getStaff } from "~/modules/auth/guards.server";
import { getConfig } from "~/modules/config/config.server";
import { publicOrigin } from "~/modules/market/market.server";
import { type DB, getDb } from "~/modules/db/db.server";
import { getLocale, getViewer } from "~/modules/http/request-context.server";
import { redirectWithToast } from "~/modules/http/toast.server";
import { useTranslation } from "~/modules/i18n/i18n-context";
import { textTranslator } from "~/modules/translations/overrides.server";
import { formatMoney } from "~/modules/money/format";
import { canOpenOrder } from "~/modules/orders/access";
import { changeOrderStatus, findOrder, longOrderNumber, OrderTransitionError } from "~/modules/orders/orders.server";
import { isPaid, statusLabelKey } from "~/modules/orders/status";
import { canHavePaymentLink, isValidPaymentLinkToken, paymentResultPath } from "~/modules/payments/payment-links.server";
import { linesForAmount, paymentFailureToast, providerTexts, startPayment } from "~/modules/payments/payments.server";
import { laterPaymentLines } from "~/modules/wizard/price.server";
import { readFormData } from "~/modules/http/request.server";

/**
 * Paying later (DESIGN §4.20): the page behind a back-office payment link and the cabinet's
 * "Pay order". Opening it (GET) only shows the order; its POST button creates the payment and moves a
 * draft to pending. Open to the order's own browser, its signed-in owner, staff, or anyone holding
 * the link's signed token; everyone else gets 404.
 */
async function openOrder(request: Request, context: unknown, db: DB, orderId: string | undefined, token: string | null) {
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

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data ? `№${data.number} — Aligner Lab` : "Aligner Lab" }, { name: "robots", content: "noindex" }];

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const token = new URL(request.url).searchParams.get("t");
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
  return {
    orderId: order.id,
    number: longOrderNumber(order.id),
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

export async function action({ request, params, context }: ActionFunctionArgs) {
  const form = await readFormData(request);
  const token = typeof form.get("t") === "string" && form.get("t") ? String(form.get("t")) : new URL(request.url).searchParams.get("t");
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

export default function PayOrder() {
  const data = useLoaderData<typeof loader>();
  const { t, i18n } = useTranslation();
  const busy = useNavigation().state !== "idle";
  const money = (amount: number) => formatMoney(amount, data.currency, i18n.language);
  return (
    <section className="container narrow-page">
      <h1>{t("payments.link.title", { number: data.number })}</h1>
      <dl className="summary-contacts">
        <dt>{t("payments.link.status")}</dt>
        <dd>
          <span className={`badge badge-${data.status}`}>{t(statusLabelKey(data.status))}</span>
        </dd>
        {data.recipient ? (
          <>
            <dt>{t("payments.link.recipient")}</dt>
            <dd>
              {data.recipient}
              {data.address ? <div className="muted small">{data.address}</div> : null}
            </dd>
          </>
        ) : null}
      </dl>
      {data.lines.length ? (
        <div className="table-wrap">
          <table className="price-table">
            <thead>
              <tr>
                <th scope="col">{t("payments.link.item")}</th>
                <th scope="col" className="num">
                  {t("payments.link.quantity")}
                </th>
                <th scope="col" className="num">
                  {t("payments.link.price")}
                </th>
              </tr>
            </thead>
            <tbody>
              {data.lines.map((line, index) => (
                <tr key={index}>
                  <td>{line.description}</td>
                  <td className="num">{line.quantity}</td>
                  <td className="num">{money(line.price)}</td>
                </tr>
              ))}
            </tbody>
            <tfoot>
              <tr>
                <th scope="row" colSpan={2}>
                  {t("payments.link.total")}
                </th>
                <td className="num total">{money(data.total)}</td>
              </tr>
            </tfoot>
          </table>
        </div>
      ) : null}
      {data.paid ? (
        <p>{t("payments.link.alreadyPaid")}</p>
      ) : data.payable ? (
        <Form method="post" action={`/pay/${data.orderId}${data.token ? `?t=${encodeURIComponent(data.token)}` : ""}`} className="actions">
          <p className="muted">{t("payments.link.intro")}</p>
          <input type="hidden" name="t" value={data.token} />
          <button type="submit" className="button" disabled={busy}>
            {t(data.market === "international" ? "payments.link.payNow" : "payments.link.pay")}
          </button>
        </Form>
      ) : (
        <p>{t("payments.link.notPayable")}</p>
      )}
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
