import { Form, Link, useNavigation } from "@remix-run/react";
import type { SerializeFrom } from "@remix-run/node";
import { PageDialog } from "~/components/backoffice/ui";
import { useTranslation } from "~/components/i18n/i18n-context";
import type { loadOrderOverview } from "~/modules/backoffice/order-page.server";
import { formatMoney } from "~/modules/money/format";
import { invoiceDate } from "~/modules/payments/invoice";
import { formatDateTime } from "~/modules/partners/format";

type Data = SerializeFrom<typeof loadOrderOverview>;

/**
 * The order's bank-transfer invoices on its back-office page (ADR 072): number, date, company, ИНН,
 * total, the page to print, and who recorded the transfer when. For an unpaid invoice of a pending
 * order, "Отметить оплату по счёту" asks first — a dialog the server renders from `?invoice=`, so it
 * works without JavaScript — and only its button records the transfer. The shared password cannot
 * record one (ADR 083): the row says so, with the way to sign in as oneself.
 */
export function OrderInvoicesTable({ orderId, invoices, question }: { orderId: string; invoices: Data["invoices"]; question: Data["question"] }) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const base = `/backoffice/orders/${orderId}`;
  const busy = useNavigation().state === "submitting";
  return (
    <section className="card bo-order-invoices" aria-labelledby="order-invoices-title">
      <h2 id="order-invoices-title">{t("bo.orders.invoices.title")}</h2>
      {invoices.length === 0 ? (
        <p className="muted">{t("bo.orders.invoices.none")}</p>
      ) : (
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">{t("bo.orders.invoices.number")}</th>
                <th scope="col">{t("bo.orders.invoices.date")}</th>
                <th scope="col">{t("bo.orders.invoices.company")}</th>
                <th scope="col">{t("bo.orders.invoices.inn")}</th>
                <th scope="col" className="num">
                  {t("bo.orders.invoices.total")}
                </th>
                <th scope="col">{t("bo.orders.invoices.payment")}</th>
              </tr>
            </thead>
            <tbody>
              {invoices.map((invoice) => (
                <tr key={invoice.id}>
                  <td data-label={t("bo.orders.invoices.number")}>
                    <Link to={`${base}/invoices/${invoice.id}`}>{t("bo.orders.invoices.open", { number: invoice.number })}</Link>
                  </td>
                  <td data-label={t("bo.orders.invoices.date")}>{invoiceDate(invoice.createdAt, language)}</td>
                  <td data-label={t("bo.orders.invoices.company")}>{invoice.company}</td>
                  <td data-label={t("bo.orders.invoices.inn")}>{invoice.inn}</td>
                  <td data-label={t("bo.orders.invoices.total")} className="num">
                    {formatMoney(invoice.total, invoice.currency, language)}
                  </td>
                  <td data-label={t("bo.orders.invoices.payment")}>
                    {invoice.paidAt ? (
                      t("bo.orders.invoices.paidBy", { date: formatDateTime(invoice.paidAt, language), by: invoice.paidBy ?? "—" })
                    ) : invoice.canMarkPaid ? (
                      <Link to={`${base}?invoice=${invoice.id}`} className="button button-small" preventScrollReset>
                        {t("bo.orders.invoices.markPaid")}
                      </Link>
                    ) : invoice.needsSignIn ? (
                      <>
                        <span className="muted">{t("bo.orders.invoices.unpaid")}</span>
                        <p className="hint small">{t("bo.orders.invoices.signInToMark")}</p>
                        <Link to={`/auth?redirectTo=${encodeURIComponent(base)}`} className="small">
                          {t("bo.access.signIn")}
                        </Link>
                      </>
                    ) : (
                      <span className="muted">{t("bo.orders.invoices.unpaid")}</span>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {question ? (
        <PageDialog titleId="invoice-paid-title" title={t("bo.orders.invoices.confirmTitle", { number: question.number })} closeTo={base}>
          <p>{t("bo.orders.invoices.confirmText", { amount: formatMoney(question.total, question.currency, language), company: question.company, inn: question.inn })}</p>
          <p className="hint">{t("bo.orders.invoices.confirmConsequences")}</p>
          <Form method="post" className="bo-dialog-actions">
            <input type="hidden" name="intent" value="invoice_paid" />
            <input type="hidden" name="invoiceId" value={question.id} />
            <Link to={base} className="button button-secondary" preventScrollReset>
              {t("bo.dialog.cancel")}
            </Link>
            <button type="submit" className="button" disabled={busy}>
              {t("bo.orders.invoices.confirm")}
            </button>
          </Form>
        </PageDialog>
      ) : null}
    </section>
  );
}
