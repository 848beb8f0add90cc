import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useLoaderData, useNavigation } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { useTranslation } from "~/components/i18n/i18n-context";
import { formatMoney } from "~/modules/money/format";
import { statusLabelKey } from "~/modules/orders/status";
import { OpenInvoiceNote } from "~/components/payments/open-invoice-note";
import { loadPayPage, payPageAction } from "~/modules/payments/pay-page.server";

/**
 * Paying later (DESIGN §4.20): the page behind a back-office payment link and the cabinet's
 * "Pay order". Opening it (GET) only shows the order; its POST button creates the payment and moves a
 * draft to pending. Open to the order's own browser, its signed-in owner, staff, or anyone holding
 * the link's signed token; everyone else gets 404.
 */
export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data ? `№${data.number} — Aligner Lab` : "Aligner Lab" }, { name: "robots", content: "noindex" }];

export async function loader(args: LoaderFunctionArgs) {
  return loadPayPage(args);
}

export async function action(args: ActionFunctionArgs) {
  return payPageAction(args);
}

export default function PayOrder() {
  const data = useLoaderData<typeof loader>();
  const { t, i18n } = useTranslation();
  const busy = useNavigation().state !== "idle";
  const money = (amount: number) => formatMoney(amount, data.currency, i18n.language);
  return (
    <section className="container narrow-page pay-page">
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
                  <td className="num muted" data-label={t("payments.link.quantity")}>
                    {line.quantity}
                  </td>
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
          {data.openInvoice ? <OpenInvoiceNote invoice={data.openInvoice} /> : null}
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
