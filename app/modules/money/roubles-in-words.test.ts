import { describe, expect, it } from "vitest";
import { roublesInWords, russianPlural } from "./roubles-in-words";

describe("an invoice's total in words", () => {
  it("writes roubles in words and kopecks in two digits, as Russian invoices do", () => {
    expect(roublesInWords(1_250_000)).toBe("Двенадцать тысяч пятьсот рублей 00 копеек");
    expect(roublesInWords(0)).toBe("Ноль рублей 00 копеек");
    expect(roublesInWords(5)).toBe("Ноль рублей 05 копеек");
    expect(roublesInWords(101)).toBe("Один рубль 01 копейка");
    expect(roublesInWords(100_000)).toBe("Одна тысяча рублей 00 копеек");
    expect(roublesInWords(1_000_000_00)).toBe("Один миллион рублей 00 копеек");
  });

  it("gives each noun the form its number asks for, the thousands feminine", () => {
    expect(roublesInWords(2_102_22)).toBe("Две тысячи сто два рубля 22 копейки");
    expect(roublesInWords(21_001_11)).toBe("Двадцать одна тысяча один рубль 11 копеек");
    expect(roublesInWords(14_014_14)).toBe("Четырнадцать тысяч четырнадцать рублей 14 копеек");
    expect(roublesInWords(5_012_345_678_90)).toBe("Пять миллиардов двенадцать миллионов триста сорок пять тысяч шестьсот семьдесят восемь рублей 90 копеек");
    expect(roublesInWords(3_000_999_00)).toBe("Три миллиона девятьсот девяносто девять рублей 00 копеек");
    expect(roublesInWords(111_211_00)).toBe("Сто одиннадцать тысяч двести одиннадцать рублей 00 копеек");
  });

  it("follows the rule for one, few and many through the teens", () => {
    const forms = ["рубль", "рубля", "рублей"] as const;
    expect([1, 2, 4, 5, 11, 12, 14, 20, 21, 22, 25, 101, 111, 112, 1001].map((n) => russianPlural(n, forms))).toEqual([
      "рубль", "рубля", "рубля", "рублей", "рублей", "рублей", "рублей", "рублей", "рубль", "рубля", "рублей", "рубль", "рублей", "рублей", "рубль",
    ]);
  });

  it("refuses what is not an amount in kopecks", () => {
    expect(() => roublesInWords(-1)).toThrow(RangeError);
    expect(() => roublesInWords(1.5)).toThrow(RangeError);
    expect(() => roublesInWords(1000 ** 4 * 100)).toThrow(RangeError);
  });
});
