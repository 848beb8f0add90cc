import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { useTranslation } from "~/components/i18n/i18n-context";
import { InvoiceDocument } from "~/components/payments/invoice-document";
import { loadOrderInvoicePage } from "~/modules/backoffice/order-invoice-page.server";
import invoiceStyles from "~/styles/invoice.css";

/** An order's bank-transfer invoice as the clinic prints it, with its transfer's record (ADR 072); the back office's chrome is left out in print. */

export const links: LinksFunction = () => [{ rel: "stylesheet", href: invoiceStyles }];

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }, { name: "robots", content: "noindex" }];

export async function loader(args: LoaderFunctionArgs) {
  return loadOrderInvoicePage(args);
}

export default function OrderInvoicePage() {
  const data = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  return <InvoiceDocument invoice={data.invoice} back={{ to: data.back, label: t("payments.invoice.backToOrder") }} nested />;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
