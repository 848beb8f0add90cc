import { useTranslation } from "~/components/i18n/i18n-context";
import { dateTimeFormat } from "~/modules/i18n/intl";
import { formatMoney } from "~/modules/money/format";
import type { PaymentReceipt } from "~db/schema";
import type { Currency } from "~db/schema";

interface Paid {
  amount: number;
  currency: Currency;
  vatNumber: string | null;
  receipt: PaymentReceipt | null;
  /** A bank transfer against the lab's invoice of this number (ADR 072). */
  invoiceNumber?: string | null;
}

/**
 * A payment and its receipt as the provider reported it (ADR 070): the amount, the clinic's VAT number,
 * the receipt's page at the provider (Stripe) or its fiscal data (YooKassa), or that it is on its way.
 */
export function PaymentReceiptNote({ paid, locale }: { paid: Paid; locale: string }) {
  const { t, i18n } = useTranslation();
  const receipt = paid.receipt;
  const fiscal = receipt?.fiscalDocumentNumber ? receipt : null;
  return (
    <div className="payment-receipt small">
      <p>{t("cabinet.paidAmount", { amount: formatMoney(paid.amount, paid.currency, i18n.language) })}</p>
      {paid.invoiceNumber ? <p className="muted">{t("cabinet.invoice.transfer", { number: paid.invoiceNumber })}</p> : null}
      {paid.vatNumber ? <p className="muted">{t("cabinet.vatNumber", { vat: paid.vatNumber })}</p> : null}
      {receipt?.url ? (
        <p>
          <a href={receipt.url} target="_blank" rel="noopener noreferrer">
            {t("cabinet.receipt.open")}
          </a>
        </p>
      ) : fiscal ? (
        <p className="muted">
          {t("cabinet.receipt.fiscal", { document: fiscal.fiscalDocumentNumber ?? "—", storage: fiscal.fiscalStorageNumber ?? "—", attribute: fiscal.fiscalAttribute ?? "—" })}
          {fiscal.registeredAt ? ` · ${dateTimeFormat(locale, { dateStyle: "short", timeStyle: "short" }).format(new Date(fiscal.registeredAt))}` : null}
        </p>
      ) : receipt?.registration === "pending" ? (
        <p className="muted">{t("cabinet.receipt.pending")}</p>
      ) : null}
    </div>
  );
}
