import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData, useNavigation } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { requireStaff, safeRedirect } from "~/modules/auth/guards.server";
import { deleteNeverPaidOrder } from "~/modules/backoffice/dashboard.server";
import { PageDialog } from "~/modules/backoffice/ui";
import { getConfig } from "~/modules/config/config.server";
import { getDb } from "~/modules/db/db.server";
import { redirectWithToast } from "~/modules/http/toast.server";
import { getTranslator } from "~/modules/i18n/i18n.server";
import { useTranslation } from "~/modules/i18n/i18n-context";
import { formatMoney } from "~/modules/money/format";
import { findOrder, shortOrderNumber } from "~/modules/orders/orders.server";
import { isPaid } from "~/modules/orders/status";
import { getStorage } from "~/modules/storage/storage.server";
import { readFormData } from "~/modules/http/request.server";
import { logger } from "~/modules/log/logger.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }, { name: "robots", content: "noindex" }];

/**
 * Deleting an order (DESIGN §4.7): the confirmation page asks "Вы уверены, что хотите удалить этот
 * заказ?" without JavaScript (with JavaScript the card asks with the browser's dialog and posts
 * here directly). Only orders never paid can go; the others can only be cancelled.
 */

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  await requireStaff(request, context);
  const { t } = await getTranslator(request);
  const order = await findOrder(await getDb(), params.orderId ?? "");
  if (!order) throw new Response("Not found", { status: 404 });
  const back = safeRedirect(new URL(request.url).searchParams.get("back"), "/backoffice");
  return {
    title: t("bo.orders.delete.title", { number: shortOrderNumber(order.id) }),
    number: shortOrderNumber(order.id),
    status: order.status,
    client: order.full_name ?? order.email,
    total: order.total_cost === null ? null : Number(order.total_cost),
    currency: order.currency,
    wasPaid: isPaid(order.status) || order.paid_at !== null,
    back,
  };
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  await requireStaff(request, context);
  const form = await readFormData(request);
  const back = safeRedirect(form.get("back"), "/backoffice");
  let result;
  try {
    result = await deleteNeverPaidOrder(await getDb(), getStorage(), getConfig(), params.orderId ?? "");
  } catch (error) {
    logger.error("back-office: deleting an order failed:", error);
    return redirectWithToast(back, { type: "error", title: "bo.toasts.error", description: "bo.orders.delete.unexpected" });
  }
  if (!result.ok) {
    const description = result.reason === "was_paid" ? "bo.orders.delete.wasPaid" : result.reason === "not_found" ? "bo.orders.errors.notFound" : "bo.orders.delete.failed";
    return redirectWithToast(back, { type: "error", title: "bo.toasts.error", description });
  }
  return redirectWithToast(back, {
    type: "success",
    title: "bo.orders.delete.done",
    description: result.filesLeft > 0 ? "bo.orders.delete.filesLeft" : "bo.orders.delete.doneText",
    values: { files: result.files },
  });
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
