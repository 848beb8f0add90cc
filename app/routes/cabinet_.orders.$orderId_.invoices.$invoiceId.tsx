import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { useTranslation } from "~/components/i18n/i18n-context";
import { InvoiceDocument } from "~/components/payments/invoice-document";
import { loadCabinetInvoicePage } from "~/modules/cabinet/cabinet-invoice-page.server";
import invoiceStyles from "~/styles/invoice.css";

/** A bank-transfer invoice of the clinic's order, ready to print on one A4 sheet (ADR 072). */

export const links: LinksFunction = () => [{ rel: "stylesheet", href: invoiceStyles }];

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }, { name: "robots", content: "noindex" }];

export async function loader(args: LoaderFunctionArgs) {
  return loadCabinetInvoicePage(args);
}

export default function CabinetInvoicePage() {
  const data = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  return (
    <section className="container">
      <InvoiceDocument invoice={data.invoice} back={{ to: data.back, label: t("payments.invoice.backToOrder") }} />
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
