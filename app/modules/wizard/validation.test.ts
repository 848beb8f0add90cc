import { describe, expect, it } from "vitest";
import { checkContacts, checkDelivery, isEmail } from "./validation";

describe("step 2 contact checks", () => {
  it("asks for the e-mail first, then the phone", () => {
    expect(checkContacts({ email: "", phone: "" })).toEqual({ email: "wizard.errors.emailRequired", phone: "wizard.errors.phoneRequired" });
    expect(checkContacts({ email: "doctor@clinic.ru", phone: "" })).toEqual({ phone: "wizard.errors.phoneRequired" });
  });
  it("refuses an e-mail that does not look like one", () => {
    expect(checkContacts({ email: "doctor@clinic", phone: "+7 900" })).toEqual({ email: "wizard.errors.emailInvalid" });
    expect(isEmail(" doctor@clinic.ru ")).toBe(true);
    expect(isEmail("a b@c.d")).toBe(false);
  });
});

describe("step 3 delivery checks", () => {
  const filled = { full_name: "Иванова А.", address: "Москва", delivery_comment: "", consent: true };
  it("needs the address, the recipient and, on the domestic market, the consent", () => {
    expect(checkDelivery({ ...filled, address: "", full_name: "", consent: false }, true)).toEqual({
      address: "wizard.errors.addressRequired",
      full_name: "wizard.errors.fullNameRequired",
      consent: "wizard.errors.consentRequired",
    });
  });
  it("does not ask for consent on the international market", () => {
    expect(checkDelivery({ ...filled, consent: false }, false)).toEqual({});
  });
});

describe("typed texts the wizard keeps", () => {
  it("refuses control characters and overlong values with their own messages", () => {
    expect(checkContacts({ email: "doc\u0000tor@clinic.ru", phone: "+7 900\u0007" })).toEqual({ email: "wizard.errors.emailInvalid", phone: "errors.fields.badCharacters" });
    expect(isEmail(`${"a".repeat(250)}@clinic.ru`)).toBe(false);
    const filled = { full_name: "Иванова А.", address: "Москва", delivery_comment: "", consent: true };
    expect(checkDelivery({ ...filled, full_name: "А".repeat(201), address: "Москва\u202E" }, false)).toEqual({
      full_name: "errors.fields.tooLong",
      address: "errors.fields.badCharacters",
    });
  });
});
