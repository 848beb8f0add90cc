import { describe, expect, it } from "vitest";
import { assertPaymentRequest, decimalToMinor, linesTotal, minorToDecimal, type PaymentRequest } from "./provider";

const request: PaymentRequest = {
  orderId: "3f2a0c1e-0000-4000-8000-000000000001",
  amount: 1_050_000,
  currency: "rub",
  description: "Aligner order №3F2A0C",
  lines: [
    { description: "Элайнеры 1-слойные для Смирнова Е.", quantity: 10, price: 90_000 },
    { description: "Упаковка и доставка", quantity: 1, price: 150_000 },
  ],
  customer: { fullName: "Иванова А.", email: "clinic@example.ru", phone: "+7 900 000-00-00" },
  returnUrl: "http://localhost:3000/payment/success?orderId=3f2a0c1e-0000-4000-8000-000000000001",
  cancelUrl: "http://localhost:3000/pay/3f2a0c1e-0000-4000-8000-000000000001",
  idempotenceKey: "k1",
};

describe("payment request rules", () => {
  it("adds up the lines in minor units", () => {
    expect(linesTotal(request.lines)).toBe(1_050_000);
  });
  it("accepts lines that add up to the amount", () => {
    expect(() => assertPaymentRequest(request)).not.toThrow();
  });
  it("refuses lines that do not add up, and non-positive or fractional amounts", () => {
    expect(() => assertPaymentRequest({ ...request, amount: 1_050_001 })).toThrow(/add up/);
    expect(() => assertPaymentRequest({ ...request, amount: 0, lines: [] })).toThrow(/positive/);
    expect(() => assertPaymentRequest({ ...request, amount: 10.5 })).toThrow(/positive/);
  });
});

describe("provider amounts", () => {
  it("writes minor units as a decimal with two places and reads them back", () => {
    expect(minorToDecimal(1_050_000)).toBe("10500.00");
    expect(minorToDecimal(1_390)).toBe("13.90");
    expect(minorToDecimal(5)).toBe("0.05");
    expect(decimalToMinor("10500.00")).toBe(1_050_000);
    expect(decimalToMinor("13.9")).toBe(1_390);
    expect(decimalToMinor("7")).toBe(700);
  });
  it("reads nothing from a malformed amount", () => {
    expect(decimalToMinor("1,50")).toBeNull();
    expect(decimalToMinor("-3.00")).toBeNull();
    expect(decimalToMinor("1.005")).toBeNull();
  });
});
