import { describe, expect, it } from "vitest";
import { checkContacts, checkDelivery, isEmail, typedProblems } from "./validation";

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

describe("what the page says before sending a step", () => {
  const form = (fields: Record<string, string>) => {
    const data = new FormData();
    for (const [name, value] of Object.entries(fields)) data.append(name, value);
    return data;
  };
  it("checks step 2's contacts on next, as the server's step check does", () => {
    expect(typedProblems(2, "next", form({ step: "2", email: " ", phone: "" }), true)).toEqual(checkContacts({ email: "", phone: "" }));
    expect(typedProblems(2, "next", form({ email: "Doctor@Clinic.RU ", phone: "+7 900" }), true)).toEqual({});
    expect(typedProblems(2, "next", form({ email: "doctor@clinic", phone: "+7 900" }), true)).toEqual({ email: "wizard.errors.emailInvalid" });
  });
  it("checks nothing on back and the skips: the server saves what can be saved", () => {
    expect(typedProblems(2, "back", form({ email: "", phone: "" }), true)).toEqual({});
    expect(typedProblems(9, "skip_retainers", form({ additional_comments: "x".repeat(2001) }), true)).toEqual({});
  });
  it("asks for the consent on the domestic market only", () => {
    const delivery = { full_name: "Иванова А.", address: "Москва" };
    expect(typedProblems(3, "next", form(delivery), true)).toEqual({ consent: "wizard.errors.consentRequired" });
    expect(typedProblems(3, "next", form(delivery), false)).toEqual({});
    expect(typedProblems(3, "next", form({ ...delivery, consent: "on" }), true)).toEqual({});
  });
  it("checks a patient name when one is added, and when next adds the typed one", () => {
    expect(typedProblems(4, "add_patient", form({ patient_name: "" }), true)).toEqual({ patient_name: "wizard.errors.patientNameRequired" });
    expect(typedProblems(4, "next", form({ patient_name: "Я".repeat(201) }), true)).toEqual({ patient_name: "errors.fields.tooLong" });
    // Next without a name is the order's own rule (a patient or none): the button and the server.
    expect(typedProblems(4, "next", form({ patient_name: "" }), true)).toEqual({});
  });
  it("checks step 9's comment length", () => {
    expect(typedProblems(9, "next", form({ cut_type: "wavy", additional_comments: "x".repeat(2001) }), true)).toEqual({ additional_comments: "errors.fields.tooLong" });
    expect(typedProblems(9, "next", form({ additional_comments: "" }), true)).toEqual({});
  });
});
