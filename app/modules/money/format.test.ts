import { describe, expect, it } from "vitest";
import { formatMoney } from "./format";

const normalize = (text: string) => text.replace(/\s/g, " ");

describe("money formatting", () => {
  it("shows rubles without decimals with Russian grouping", () => {
    expect(normalize(formatMoney(1_250_000, "rub", "ru"))).toBe("12 500 ₽");
  });
  it("shows euros always with two decimals in the reader's locale (DESIGN §3, ADR 043)", () => {
    expect(normalize(formatMoney(1390, "eur", "en"))).toBe("€13.90");
    expect(normalize(formatMoney(1390, "eur", "de"))).toBe("13,90 €");
    expect(normalize(formatMoney(1500, "eur", "es"))).toBe("15,00 €");
    expect(normalize(formatMoney(1390, "eur", "fr"))).toBe("13,90 €");
    expect(normalize(formatMoney(1390, "eur", "it"))).toBe("13,90 €");
    expect(normalize(formatMoney(1390, "eur", "ru"))).toBe("13,90 €");
    expect(normalize(formatMoney(123_456_78, "eur", "de"))).toBe("123.456,78 €");
    expect(normalize(formatMoney(5, "eur", "en"))).toBe("€0.05");
  });
});
