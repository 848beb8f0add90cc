import { useTranslation } from "~/components/i18n/i18n-context";
import { invoiceDate } from "~/modules/payments/invoice";

/**
 * Beside a card payment, the bank-transfer invoice the clinic may already be paying (ADR 072): its
 * number and date, and not to pay twice. The card payment stays: the transfer may never come.
 */
export function OpenInvoiceNote({ invoice }: { invoice: { number: number; createdAt: string } }) {
  const { t, i18n } = useTranslation();
  return (
    <p className="note-warning" role="note">
      {t("payments.invoice.openBeforeCard", { number: invoice.number, date: invoiceDate(invoice.createdAt, i18n.language) })}
    </p>
  );
}
