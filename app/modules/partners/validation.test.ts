import { describe, expect, it } from "vitest";
import { CONTACT_PHONE_MAX, checkContacts, checkName, checkPayout, checkPercentage, currentPeriod, NAME_MAX, NOTE_MAX, parseMoneyToMinor } from "./validation";

const form = (values: Record<string, string>) => {
  const data = new FormData();
  for (const [name, value] of Object.entries(values)) data.set(name, value);
  return data;
};

describe("payout amounts", () => {
  it.each([
    ["1500", 150_000],
    ["1 500", 150_000],
    ["12\u00a0345,67", 1_234_567],
    ["0.5", 50],
    ["0,05", 5],
    ["100 ₽", 10_000],
  ])("reads %s as %d kopecks", (input, minor) => {
    expect(parseMoneyToMinor(input)).toBe(minor);
  });

  it.each(["", "abc", "-5", "1.234", "1e3", "1,2,3"])("refuses %j", (input) => {
    expect(parseMoneyToMinor(input)).toBeNull();
  });
});

describe("payout form", () => {
  it("accepts an amount, a year and a quarter, trimming the comment", () => {
    expect(checkPayout(form({ amount: "2 083,33", year: "2026", quarter: "4", note: "  акт № 5  " }))).toEqual({
      value: { amount: 208_333, year: 2026, quarter: 4, note: "акт № 5" },
      errors: null,
    });
    expect(checkPayout(form({ amount: "10", year: "2026", quarter: "1", note: "   " })).value?.note).toBeNull();
  });

  it("says 'Введите сумму больше 0' and 'Квартал должен быть от 1 до 4'", () => {
    for (const amount of ["0", "0,00", "", "минус"]) {
      expect(checkPayout(form({ amount, year: "2026", quarter: "1" })).errors).toEqual({ amount: "partners.errors.amountPositive" });
    }
    for (const quarter of ["0", "5", "", "1.5"]) {
      expect(checkPayout(form({ amount: "1", year: "2026", quarter })).errors).toEqual({ quarter: "partners.errors.quarterRange" });
    }
    expect(checkPayout(form({ amount: "1", year: "1999", quarter: "1" })).errors).toEqual({ year: "partners.errors.yearRange" });
  });
});

describe("reward percentage", () => {
  it("keeps the current value when empty", () => {
    expect(checkPercentage("  ")).toEqual({ kind: "keep" });
  });

  it.each([
    ["10", "10.00"],
    ["7,5", "7.50"],
    ["100", "100.00"],
    ["0.01", "0.01"],
    ["12.5 %", "12.50"],
  ])("sets %s as %s", (input, value) => {
    expect(checkPercentage(input)).toEqual({ kind: "set", value });
  });

  it.each(["0", "100.01", "150", "-1", "abc", "1.234"])("refuses %s with 'Процент должен быть в диапазоне 0-100'", (input) => {
    expect(checkPercentage(input)).toEqual({ kind: "invalid", error: "partners.errors.percentageRange" });
  });
});

describe("partner name and contacts", () => {
  it("refuses an empty name", () => {
    expect(checkName("   ")).toEqual({ value: null, error: "partners.errors.nameEmpty" });
    expect(checkName("  ООО  «Улыбка» ")).toEqual({ value: "ООО «Улыбка»", error: null });
  });

  it("needs both phone and e-mail, then the offer", () => {
    expect(checkContacts(form({ contact_email: "", contact_phone: "", offer: "on" }), false)).toEqual({
      value: null,
      errors: { contact_email: "partners.errors.contactsRequired", contact_phone: "partners.errors.contactsRequired" },
      summary: "partners.errors.contactsTitle",
    });
    expect(checkContacts(form({ contact_email: "a@b.ru", contact_phone: "+7 900" }), false)).toEqual({
      value: null,
      errors: { offer: "partners.errors.consentRequired" },
      summary: "partners.errors.consentTitle",
    });
    expect(checkContacts(form({ contact_email: " A@B.ru ", contact_phone: "+7 900" }), true)).toEqual({
      value: { contactEmail: "a@b.ru", contactPhone: "+7 900", acceptOffer: false },
      errors: null,
      summary: null,
    });
    expect(checkContacts(form({ contact_email: "not-mail", contact_phone: "1", offer: "on" }), false).errors).toEqual({ contact_email: "partners.errors.emailInvalid" });
  });
});

describe("nothing typed is cut", () => {
  it("refuses an over-long name, note or phone with the field's error instead of saving a shortened one", () => {
    expect(checkName("Я".repeat(NAME_MAX))).toEqual({ value: "Я".repeat(NAME_MAX), error: null });
    expect(checkName("Я".repeat(NAME_MAX + 1))).toEqual({ value: null, error: "errors.fields.tooLong" });
    expect(checkPayout(form({ amount: "1", year: "2026", quarter: "1", note: "n".repeat(NOTE_MAX) })).value?.note).toHaveLength(NOTE_MAX);
    expect(checkPayout(form({ amount: "1", year: "2026", quarter: "1", note: "n".repeat(NOTE_MAX + 1) })).errors).toEqual({ note: "errors.fields.tooLong" });
    expect(checkContacts(form({ contact_email: "a@b.ru", contact_phone: "1".repeat(CONTACT_PHONE_MAX) }), true).value?.contactPhone).toHaveLength(CONTACT_PHONE_MAX);
    expect(checkContacts(form({ contact_email: "a@b.ru", contact_phone: "1".repeat(CONTACT_PHONE_MAX + 1) }), true).errors).toEqual({ contact_phone: "errors.fields.tooLong" });
    expect(checkContacts(form({ contact_email: `${"a".repeat(250)}@b.ru`, contact_phone: "1" }), true).errors).toEqual({ contact_email: "errors.fields.tooLong" });
  });
});

describe("current period", () => {
  it("follows Moscow time at the turn of a quarter", () => {
    expect(currentPeriod(new Date("2026-03-31T20:59:59Z"))).toEqual({ year: 2026, quarter: 1 });
    expect(currentPeriod(new Date("2026-03-31T21:00:00Z"))).toEqual({ year: 2026, quarter: 2 });
    expect(currentPeriod(new Date("2025-12-31T21:30:00Z"))).toEqual({ year: 2026, quarter: 1 });
  });
});
