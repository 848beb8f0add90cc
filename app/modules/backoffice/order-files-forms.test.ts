import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import { FILE_ERRORS, fileCorrectionRefusal, fileCorrectionSchema } from "./order-files-forms.server";

const GOOD = { patientId: "00000000-0000-4000-8000-000000000001", type: "aligners", path: "order_x/x_1/aligners/a.stl", jaw: "lower", step: "3" };

function submit(values: Record<string, string>) {
  const data = new FormData();
  for (const [name, value] of Object.entries(values)) data.append(name, value);
  return parseWithZod(data, { schema: fileCorrectionSchema });
}

/** The toast's reason for refusing these values, or "accepted". */
function refusal(values: Record<string, string>) {
  const result = submit(values);
  return result.status === "error" ? fileCorrectionRefusal(result.error) : "accepted";
}

describe("staff's jaw-and-step correction form", () => {
  it("reads the jaw and a step from 1 to 999; an empty step is none", () => {
    expect(submit(GOOD)).toMatchObject({ status: "success", value: { jaw: "lower", step: 3, type: "aligners" } });
    expect(submit({ ...GOOD, step: " 999 " })).toMatchObject({ status: "success", value: { step: 999 } });
    expect(submit({ ...GOOD, step: "007" })).toMatchObject({ status: "success", value: { step: 7 } });
    expect(submit({ ...GOOD, type: "matrix", step: "" })).toMatchObject({ status: "success", value: { step: null } });
  });

  it("refuses a step that is 0, over 999 or not a whole number, and a jaw that is neither", () => {
    for (const step of ["0", "9999", "1000", "три", "-3", "2.5", "1e2", "2\u0000"]) expect(refusal({ ...GOOD, step }), step).toBe(FILE_ERRORS.step);
    for (const jaw of ["middle", "", "UPPER"]) expect(refusal({ ...GOOD, jaw }), jaw).toBe(FILE_ERRORS.jaw);
  });

  it("says a file that is not named right is not found in the order", () => {
    expect(refusal({ ...GOOD, type: "crowns" })).toBe(FILE_ERRORS.notFound);
    const { path: _path, ...withoutPath } = GOOD;
    expect(refusal(withoutPath)).toBe(FILE_ERRORS.notFound);
  });
});
