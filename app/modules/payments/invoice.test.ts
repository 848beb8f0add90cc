import { describe, expect, it } from "vitest";
import { invoiceStillPayable, openInvoiceOf } from "./invoice";

const pending = { status: "pending" as const, total_cost: 1_250_000, currency: "rub" };
const invoice = (number: number, total = 1_250_000, paid_at: Date | null = null) => ({ number, total, currency: "rub", paid_at });

describe("the invoice beside a card payment", () => {
  it("is the newest unpaid invoice whose total and currency the pending order still has", () => {
    expect(openInvoiceOf([invoice(1), invoice(2)], pending)?.number).toBe(2);
    expect(openInvoiceOf([invoice(1), invoice(2, 990_000)], pending)?.number).toBe(1);
    expect(openInvoiceOf([invoice(1, 1_250_000, new Date())], pending)).toBeNull();
    expect(openInvoiceOf([], pending)).toBeNull();
  });

  it("is none once the order is paid, cancelled, back in editing or in another currency", () => {
    for (const status of ["paid", "cancelled", "draft"] as const) expect(openInvoiceOf([invoice(1)], { ...pending, status }), status).toBeNull();
    expect(openInvoiceOf([invoice(1)], { ...pending, currency: "eur" })).toBeNull();
    expect(invoiceStillPayable({ total: "1250000", currency: "rub", paid: false }, { ...pending, total_cost: "1250000" })).toBe(true);
  });
});
