import { describe, expect, it } from "vitest";
import { innField, innProblem, isInn } from "./inn";

const field = innField({ required: "required", shape: "shape", checksum: "checksum" });
const firstMessage = (result: { success: boolean; error?: { issues: Array<{ message: string }> } }) => (result.success ? null : result.error!.issues[0]!.message);

describe("the ИНН rule", () => {
  it.each(["7707083893", "7700000016", "7712345671", "500100732259", "771234567859"])("takes %s, an organisation's (10) or an entrepreneur's (12) number with its check digits", (inn) => {
    expect(innProblem(inn)).toBeNull();
    expect(isInn(inn)).toBe(true);
  });

  it.each([
    ["7707083894", "checksum"],
    ["500100732258", "checksum"],
    ["500100732269", "checksum"],
    ["770708389", "shape"],
    ["77070838931", "shape"],
    ["7707O83893", "shape"],
    ["", "shape"],
  ])("refuses %j: %s", (inn, problem) => {
    expect(innProblem(inn)).toBe(problem);
  });

  it("reads the number as typed, spaces and dashes between its digits dropped, each refusal with its message", () => {
    expect(field.safeParse(" 7707 083-893 ")).toMatchObject({ success: true, data: "7707083893" });
    expect(firstMessage(field.safeParse(undefined))).toBe("required");
    expect(firstMessage(field.safeParse("  "))).toBe("required");
    expect(firstMessage(field.safeParse("12345"))).toBe("shape");
    expect(firstMessage(field.safeParse("7707083894"))).toBe("checksum");
  });
});
