import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData, useNavigation } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { PageDialog } from "~/components/backoffice/ui";
import { useTranslation } from "~/components/i18n/i18n-context";
import { formatMoney } from "~/modules/money/format";
import { loadOrderDeletePage, orderDeletePageAction } from "~/modules/backoffice/order-delete-page.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }, { name: "robots", content: "noindex" }];

/**
 * Deleting an order (DESIGN §4.7): the confirmation page asks "Вы уверены, что хотите удалить этот
 * заказ?" without JavaScript (with JavaScript the card asks with the browser's dialog and posts
 * here directly). Only orders never paid can go; the others can only be cancelled.
 */

export async function loader(args: LoaderFunctionArgs) {
  return loadOrderDeletePage(args);
}

export async function action(args: ActionFunctionArgs) {
  return orderDeletePageAction(args);
}

export default function DeleteOrder() {
  const order = useLoaderData<typeof loader>();
  const { t, i18n } = useTranslation();
  const busy = useNavigation().state === "submitting";
  return (
    <section className="bo-page">
      <PageDialog titleId="delete-title" title={order.wasPaid ? t("bo.orders.delete.notPossibleTitle") : t("bo.orders.delete.confirm")} closeTo={order.back}>
        <p>
          <strong>{t("bo.orders.number", { number: order.number })}</strong> · {t(`orderStatus.${order.status}`)}
          {order.client ? ` · ${order.client}` : ""}
          {order.total !== null ? ` · ${formatMoney(order.total, order.currency, i18n.language)}` : ""}
        </p>
        {order.wasPaid ? (
          <>
            <p role="alert">{t("bo.orders.delete.wasPaid")}</p>
            <div className="bo-dialog-actions">
              <Link to={order.back} className="button">
                {t("bo.dialog.close")}
              </Link>
            </div>
          </>
        ) : (
          <Form method="post">
            <input type="hidden" name="back" value={order.back} />
            <p className="hint">{t("bo.orders.delete.consequences")}</p>
            <div className="bo-dialog-actions">
              <Link to={order.back} className="button button-secondary">
                {t("bo.dialog.cancel")}
              </Link>
              <button type="submit" className="button bo-danger" disabled={busy}>
                {t("bo.orders.delete.yes")}
              </button>
            </div>
          </Form>
        )}
      </PageDialog>
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
