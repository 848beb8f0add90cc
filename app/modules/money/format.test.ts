import { describe, expect, it } from "vitest";
import { formatMoney } from "./format";

const normalize = (text: string) => text.replace(/\s/g, " ");

describe("money formatting", () => {
  it("shows rubles without decimals with Russian grouping", () => {
    expect(normalize(formatMoney(1_250_000, "rub", "ru"))).toBe("12 500 ₽");
  });
  it("shows euros with cents", () => {
    expect(normalize(formatMoney(1390, "eur", "en"))).toBe("€13.90");
    expect(normalize(formatMoney(1390, "eur", "de"))).toBe("13,90 €");
  });
});
