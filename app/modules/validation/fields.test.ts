import { describe, expect, it } from "vitest";
import { EMAIL_MAX, isEmail, normalizeEmail } from "./email";
import { emailField, nameField, parseMoneyToMinor, percentageField, textField } from "./fields";

const email = emailField({ required: "required", invalid: "invalid", tooLong: "tooLong" });
const firstMessage = (result: { success: boolean; error?: { issues: Array<{ message: string }> } }) => (result.success ? null : result.error!.issues[0]!.message);

describe("the one e-mail rule", () => {
  it.each(["doctor@clinic.ru", " Doctor@Clinic.RU ", "врач@клиника.рф", "a.b+c@x.co"])("takes %j", (address) => {
    expect(isEmail(address)).toBe(true);
    expect(email.safeParse(address)).toMatchObject({ success: true, data: normalizeEmail(address) });
  });

  it.each([
    ["", "required"],
    ["   ", "required"],
    ["not-mail", "invalid"],
    ["a@b", "invalid"],
    ["a b@c.ru", "invalid"],
    ['<img src=x onerror="alert(1)">', "invalid"],
    ["a\u0000@b.ru", "errors.fields.badCharacters"],
    [`${"a".repeat(EMAIL_MAX)}@b.ru`, "tooLong"],
  ])("refuses %j with %s, as isEmail does", (address, message) => {
    expect(isEmail(address)).toBe(false);
    expect(firstMessage(email.safeParse(address))).toBe(message);
  });

  it("normalises to trimmed lower case, nothing to null", () => {
    expect(normalizeEmail("  A@B.RU ")).toBe("a@b.ru");
    expect(normalizeEmail("   ")).toBeNull();
    expect(normalizeEmail(null)).toBeNull();
  });
});

describe("texts, names, amounts, percentages", () => {
  it("refuses a control character as typed, trims, and refuses rather than cuts a long text", () => {
    const text = textField(5, "required");
    expect(text.safeParse("  abc ")).toMatchObject({ success: true, data: "abc" });
    expect(firstMessage(text.safeParse("abcdef"))).toBe("errors.fields.tooLong");
    expect(firstMessage(text.safeParse("a\u202Eb"))).toBe("errors.fields.badCharacters");
    expect(firstMessage(text.safeParse("   "))).toBe("required");
    expect(textField(5).safeParse(undefined)).toMatchObject({ success: true, data: "" });
  });

  it("counts a name's runs of spaces as one", () => {
    expect(nameField("empty", 5).safeParse("  a    b  ")).toMatchObject({ success: true, data: "a b" });
    expect(firstMessage(nameField("empty", 5).safeParse("abcdef"))).toBe("errors.fields.tooLong");
  });

  it("reads money in major units to minor units, euro or rouble", () => {
    expect(parseMoneyToMinor("12,90 €")).toBe(1290);
    expect(parseMoneyToMinor("1 500 ₽")).toBe(150_000);
    expect(parseMoneyToMinor("1.234")).toBeNull();
  });

  it("keeps the current percentage on a blank field only where asked", () => {
    expect(percentageField("range", { blankKeeps: true }).safeParse("  ")).toMatchObject({ success: true, data: undefined });
    expect(firstMessage(percentageField("range").safeParse("  "))).toBe("range");
    expect(percentageField("range").safeParse("7,5 %")).toMatchObject({ success: true, data: "7.50" });
  });
});
