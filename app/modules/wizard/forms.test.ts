import { describe, expect, it } from "vitest";
import { parseWithZod } from "@conform-to/zod/v4";
import { postedStep, wizardFormSchema } from "./forms";
import { typedValues } from "./replies.server";

// As the parsing layer reads a post (http/forms/submission.server.ts).
const parse = (data: FormData, schema: typeof wizardFormSchema) => parseWithZod(data, { schema });

const form = (entries: Array<[string, string]>) => {
  const data = new FormData();
  for (const [name, value] of entries) data.append(name, value);
  return data;
};

describe("the wizard's form, parsed", () => {
  it("reads the texts trimmed, the e-mail lower-cased, the choices from their lists, and refuses nothing", () => {
    const submission = parse(
      form([
        ["intent", "next"],
        ["email", "  Doctor@Clinic.RU "],
        ["phone", " +7 900 "],
        ["consent", "on"],
        ["matrix_type", "soft"],
        ["material_type", "glass"],
        ["in_flight", "u1"],
      ]),
      wizardFormSchema,
    );
    expect(submission.status).toBe("success");
    const value = submission.status === "success" ? submission.value : null;
    expect(value).toMatchObject({ intent: "next", email: "doctor@clinic.ru", phone: "+7 900", consent: true, matrix_type: "soft", material_type: null, cut_type: null, in_flight: ["u1"] });
  });

  it("takes a field's first value, as the form was always read, and every upload in flight", () => {
    const submission = parse(form([["intent", "back"], ["intent", "next"], ["in_flight", "u1"], ["in_flight", "u2"]]), wizardFormSchema);
    expect(submission.status === "success" && submission.value).toMatchObject({ intent: "back", in_flight: ["u1", "u2"], consent: false });
  });

  it("an empty post is no intent, no consent, nothing in flight", () => {
    expect(wizardFormSchema.parse({})).toMatchObject({ intent: "", consent: false, in_flight: [] });
  });
});

describe("the step a post names (ADR 046)", () => {
  const step = (entries: Array<[string, string]>) => postedStep(parse(form(entries), wizardFormSchema).payload);
  it("is the number sent, none when the form carries no step, and no step the order can be on when it is empty or no number", () => {
    expect(step([["step", "3"]])).toBe(3);
    expect(step([["intent", "pay"]])).toBeNull();
    expect(step([["step", ""]])).toBe(0);
    expect(step([["step", "three"]])).toBeNaN();
    expect(step([["step", "4"], ["step", "5"]])).toBe(4);
  });
});

describe("what a refused step gives back", () => {
  it("is every text sent, the last of a field sent twice", () => {
    expect(typedValues({ email: "a@b.c", consent: "on", in_flight: ["u1", "u2"] })).toEqual({ email: "a@b.c", consent: "on", in_flight: "u2" });
  });
});
