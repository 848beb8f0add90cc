import { describe, expect, it } from "vitest";
import { detectJaw, guessJaw } from "./jaw-and-step";
import { isDeclared } from "./declaration";

describe("a file's jaw from its name (ADR 058)", () => {
  it("is null when the name names none, where the specification's rule says upper", () => {
    expect(guessJaw("scan.stl")).toBeNull();
    expect(guessJaw("patient-2024-05-01.stl")).toBeNull();
    expect(detectJaw("scan.stl")).toBe("upper");
  });

  it("is the jaw a word or letter names", () => {
    expect(guessJaw("Шаг 03 нижняя.stl")).toBe("lower");
    expect(guessJaw("Subsetup12_Upper.stl")).toBe("upper");
    expect(guessJaw("01_L.stl")).toBe("lower");
  });
});

describe("what a file needs declared", () => {
  it("a jaw, and an aligner also its step", () => {
    expect(isDeclared("aligners", "upper", 3)).toBe(true);
    expect(isDeclared("aligners", "upper", null)).toBe(false);
    expect(isDeclared("aligners", null, 3)).toBe(false);
    expect(isDeclared("matrix", "lower", null)).toBe(true);
    expect(isDeclared("retainer", null, null)).toBe(false);
  });
});
