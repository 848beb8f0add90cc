import type { Currency, MarketColumn, OrderStatus } from "~db/schema";
import { dateTimeFormat, numberFormat } from "~/modules/i18n/intl";
import { canPay } from "~/modules/orders/status";

/**
 * What both sides know of a bank-transfer invoice (ADR 072): when a clinic may ask for one, and how
 * its date and amounts are written. Pure: the cabinet, the back office and the printable page share it.
 */

/** Invoices are for the domestic market's rouble orders that are priced and unpaid ("Pay order" shows). */
export function invoiceOffered(order: { status: OrderStatus; total_cost: number | string | null; market: MarketColumn; currency: Currency }): boolean {
  return order.market === "domestic" && order.currency === "rub" && canPay(order.status, order.total_cost === null ? null : Number(order.total_cost));
}

const LOCALES: Record<string, string> = { ru: "ru-RU", en: "en-GB", de: "de-DE", es: "es-ES", fr: "fr-FR", it: "it-IT" };

/** The invoice's date as the lab's books write it: the day in Moscow, "04.12.2026" in Russian. */
export function invoiceDate(iso: string, language: string): string {
  return dateTimeFormat(LOCALES[language] ?? "ru-RU", { timeZone: "Europe/Moscow", day: "2-digit", month: "2-digit", year: "numeric" }).format(new Date(iso));
}

/** An amount on the invoice: roubles with kopecks, "12 500,00" in Russian (the currency is named in the table's head). */
export function invoiceAmount(minorUnits: number, language: string): string {
  return numberFormat(LOCALES[language] ?? "ru-RU", { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(minorUnits / 100);
}

/** An invoice that can still be paid: not paid, and its order still pending at the invoice's total and currency. */
export function invoiceStillPayable(
  invoice: { total: number | string; currency: string; paid: boolean },
  order: { status: OrderStatus; total_cost: number | string | null; currency: string },
): boolean {
  return !invoice.paid && order.status === "pending" && Number(order.total_cost) === Number(invoice.total) && order.currency === invoice.currency;
}

/**
 * The newest invoice a clinic may be paying by transfer right now, shown beside the card payment so
 * that an order is not paid twice (ADR 072); null when there is none.
 */
export function openInvoiceOf<T extends { total: number | string; currency: string; paid_at: Date | null }>(
  invoices: readonly T[],
  order: { status: OrderStatus; total_cost: number | string | null; currency: string },
): T | null {
  return invoices.filter((invoice) => invoiceStillPayable({ ...invoice, paid: Boolean(invoice.paid_at) }, order)).at(-1) ?? null;
}
