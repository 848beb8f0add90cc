import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { OrderCard } from "~/components/backoffice/order-card";
import { OrderInvoicesTable } from "~/components/backoffice/order-invoices";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { SectionError } from "~/components/section-error";
import { loadOrderOverview, orderOverviewAction } from "~/modules/backoffice/order-page.server";
import { useTranslation } from "~/components/i18n/i18n-context";
import { zonedTimes } from "~/modules/i18n/clock";
import { useStaffTimeZone } from "~/components/backoffice/staff-clock";
import { formatMoney } from "~/modules/money/format";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }, { name: "robots", content: "noindex" }];

/** The order's overview: its card as the dashboard shows it (patients with their files, history, actions) and its payment attempts. */
export async function loader(args: LoaderFunctionArgs) {
  return loadOrderOverview(args);
}

/** A bank transfer recorded against one of the order's invoices (ADR 072). */
export async function action(args: ActionFunctionArgs) {
  return orderOverviewAction(args);
}

export default function OrderOverview() {
  const { order, number, canPaymentLink, canTracker, statusForms, patientsFailure, payments, invoices, question } = useLoaderData<typeof loader>();
  const { t, i18n } = useTranslation();
  const timeZone = useStaffTimeZone();
  const when = zonedTimes(t, i18n.language, timeZone);
  return (
    <>
      {patientsFailure ? <SectionError failure={patientsFailure} /> : null}
      <OrderCard order={order} back={`/backoffice/orders/${order.id}`} number={number} canPaymentLink={canPaymentLink} canTracker={canTracker} statusForms={statusForms} timeZone={timeZone} />
      <section className="card bo-order-payments" aria-labelledby="order-payments-title">
        <h2 id="order-payments-title">{t("bo.orders.page.payments")}</h2>
        {payments.length === 0 ? (
          <p className="muted">{t("bo.orders.page.noPayments")}</p>
        ) : (
          <div className="table-wrap">
            <table>
              <thead>
                <tr>
                  <th scope="col">{t("bo.orders.page.paymentDate")}</th>
                  <th scope="col">{t("bo.orders.page.paymentProvider")}</th>
                  <th scope="col" className="num">
                    {t("bo.orders.page.paymentAmount")}
                  </th>
                  <th scope="col">{t("bo.orders.page.paymentStatus")}</th>
                </tr>
              </thead>
              <tbody>
                {payments.map((payment) => (
                  <tr key={payment.id}>
                    <td>
                      <time dateTime={payment.createdAt}>{when(payment.createdAt)}</time>
                    </td>
                    <td>{payment.provider === "invoice" ? t("bo.orders.invoices.provider") : payment.provider}</td>
                    <td className="num">{formatMoney(payment.amount, payment.currency, i18n.language)}</td>
                    <td>
                      {payment.superseded ? t(`bo.orders.page.paymentSuperseded.${payment.superseded}`) : t(`bo.orders.page.paymentStatuses.${payment.status}`)}
                      {payment.lastError ? <div className="small muted">{payment.lastError}</div> : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
      <OrderInvoicesTable orderId={order.id} invoices={invoices} question={question} />
    </>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
