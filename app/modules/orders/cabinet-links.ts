/**
 * Where an order lives in the doctor's cabinet (ADR 070): the payment page, the thank-you page and
 * every status mail link here. Opened without a session it leads through sign-in and back.
 */
export const cabinetOrderPath = (orderId: string) => `/cabinet/orders/${orderId}`;

/** An order's bank-transfer invoice, ready to print (ADR 072). */
export const cabinetInvoicePath = (orderId: string, invoiceId: string) => `${cabinetOrderPath(orderId)}/invoices/${invoiceId}`;

/** An address as the payment page names it to whoever holds the page: "d…@clinic.ru". */
export function maskedEmail(email: string): string {
  const at = email.lastIndexOf("@");
  if (at < 1) return "…";
  return `${email[0]}…${email.slice(at)}`;
}
