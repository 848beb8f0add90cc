import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import type * as z from "zod/mini";
import { checkInBrowser } from "~/modules/validation/browser";
import { parseMoneyToMinor } from "~/modules/validation/fields";
import { CONTACT_PHONE_MAX, contactsSchema, NAME_MAX, nameSchema, NOTE_MAX, payoutSchema, percentageSchema } from "./forms";
import { contactsSummary, currentPeriod } from "./page-helpers";

const form = (values: Record<string, string>) => {
  const data = new FormData();
  for (const [name, value] of Object.entries(values)) data.set(name, value);
  return data;
};

/** The server's parse; the browser's check with the same schema must say the same. */
function check(schema: z.ZodMiniType, values: Record<string, string>) {
  const server = parseWithZod(form(values), { schema });
  const browser = checkInBrowser(form(values), schema);
  expect(browser.status).toBe(server.status);
  const errorsOf = (submission: typeof browser) => (submission.status === "success" ? null : submission.error ?? null);
  expect(errorsOf(browser)).toEqual(errorsOf(server));
  const firstErrors = server.status !== "success" && server.error ? Object.fromEntries(Object.entries(server.error).map(([name, messages]) => [name, messages?.[0]])) : null;
  return { value: server.status === "success" ? (server.value as Record<string, unknown>) : null, errors: firstErrors };
}
const checkPayout = (values: Record<string, string>) => check(payoutSchema, { intent: "add_payout", partner_code_id: "00000000-0000-4000-8000-000000000000", ...values });
const checkPercentage = (percentage: string) => check(percentageSchema, { intent: "set_percentage", partner_code_id: "00000000-0000-4000-8000-000000000000", percentage });
const checkName = (user_name: string) => check(nameSchema, { intent: "name", user_name });
function checkContacts(values: Record<string, string>, offerAccepted: boolean) {
  const result = check(contactsSchema(offerAccepted), { intent: "contacts", ...values });
  return { ...result, summary: contactsSummary(result.errors && Object.fromEntries(Object.entries(result.errors).map(([name, message]) => [name, message ? [message] : []]))) };
}

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
    expect(checkPayout({ amount: "2 083,33", year: "2026", quarter: "4", note: "  акт № 5  " }).value).toMatchObject({ amount: 208_333, year: 2026, quarter: 4, note: "акт № 5" });
    // An empty comment is stored as none (the action writes "" as null).
    expect(checkPayout({ amount: "10", year: "2026", quarter: "1", note: "   " }).value?.note).toBe("");
  });

  it("says 'Введите сумму больше 0' and 'Квартал должен быть от 1 до 4'", () => {
    for (const amount of ["0", "0,00", "", "минус"]) {
      expect(checkPayout({ amount, year: "2026", quarter: "1" }).errors).toEqual({ amount: "partners.errors.amountPositive" });
    }
    for (const quarter of ["0", "5", "", "1.5"]) {
      expect(checkPayout({ amount: "1", year: "2026", quarter }).errors).toEqual({ quarter: "partners.errors.quarterRange" });
    }
    expect(checkPayout({ amount: "1", year: "1999", quarter: "1" }).errors).toEqual({ year: "partners.errors.yearRange" });
  });
});

describe("reward percentage", () => {
  it("keeps the current value when empty", () => {
    expect(checkPercentage("  ").value?.percentage).toBeUndefined();
    expect(checkPercentage("").value?.percentage).toBeUndefined();
  });

  it.each([
    ["10", "10.00"],
    ["7,5", "7.50"],
    ["100", "100.00"],
    ["0.01", "0.01"],
    ["12.5 %", "12.50"],
  ])("sets %s as %s", (input, value) => {
    expect(checkPercentage(input).value?.percentage).toBe(value);
  });

  it.each(["0", "100.01", "150", "-1", "abc", "1.234"])("refuses %s with 'Процент должен быть в диапазоне 0-100'", (input) => {
    expect(checkPercentage(input).errors).toEqual({ percentage: "partners.errors.percentageRange" });
  });
});

describe("partner name and contacts", () => {
  it("refuses an empty name", () => {
    expect(checkName("   ").errors).toEqual({ user_name: "partners.errors.nameEmpty" });
    expect(checkName("  ООО  «Улыбка» ").value?.user_name).toBe("ООО «Улыбка»");
  });

  it("needs both phone and e-mail, then the offer", () => {
    expect(checkContacts({ contact_email: "", contact_phone: "", offer: "on" }, false)).toEqual({
      value: null,
      errors: { contact_email: "partners.errors.contactsRequired", contact_phone: "partners.errors.contactsRequired" },
      summary: "partners.errors.contactsTitle",
    });
    expect(checkContacts({ contact_email: "a@b.ru", contact_phone: "+7 900" }, false)).toEqual({
      value: null,
      errors: { offer: "partners.errors.consentRequired" },
      summary: "partners.errors.consentTitle",
    });
    expect(checkContacts({ contact_email: " A@B.ru ", contact_phone: "+7 900" }, true)).toEqual({
      value: { intent: "contacts", contact_email: "a@b.ru", contact_phone: "+7 900", offer: false },
      errors: null,
      summary: null,
    });
    expect(checkContacts({ contact_email: "not-mail", contact_phone: "1", offer: "on" }, false).errors).toEqual({ contact_email: "partners.errors.emailInvalid" });
  });
});

describe("nothing typed is cut", () => {
  it("refuses an over-long name, note or phone with the field's error instead of saving a shortened one", () => {
    expect(checkName("Я".repeat(NAME_MAX)).value?.user_name).toBe("Я".repeat(NAME_MAX));
    expect(checkName("Я".repeat(NAME_MAX + 1)).errors).toEqual({ user_name: "errors.fields.tooLong" });
    expect(checkPayout({ amount: "1", year: "2026", quarter: "1", note: "n".repeat(NOTE_MAX) }).value?.note).toHaveLength(NOTE_MAX);
    expect(checkPayout({ amount: "1", year: "2026", quarter: "1", note: "n".repeat(NOTE_MAX + 1) }).errors).toEqual({ note: "errors.fields.tooLong" });
    expect(checkContacts({ contact_email: "a@b.ru", contact_phone: "1".repeat(CONTACT_PHONE_MAX) }, true).value?.contact_phone).toHaveLength(CONTACT_PHONE_MAX);
    expect(checkContacts({ contact_email: "a@b.ru", contact_phone: "1".repeat(CONTACT_PHONE_MAX + 1) }, true).errors).toEqual({ contact_phone: "errors.fields.tooLong" });
    expect(checkContacts({ contact_email: `${"a".repeat(250)}@b.ru`, contact_phone: "1" }, true).errors).toEqual({ contact_email: "errors.fields.tooLong" });
  });
});

describe("current period", () => {
  it("follows Moscow time at the turn of a quarter", () => {
    expect(currentPeriod(new Date("2026-03-31T20:59:59Z"))).toEqual({ year: 2026, quarter: 1 });
    expect(currentPeriod(new Date("2026-03-31T21:00:00Z"))).toEqual({ year: 2026, quarter: 2 });
    expect(currentPeriod(new Date("2025-12-31T21:30:00Z"))).toEqual({ year: 2026, quarter: 1 });
  });
});
