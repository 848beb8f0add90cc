import { describe, expect, it } from "vitest";
import { declaredOrGuessed } from "./declaration";
import { factsText } from "~/modules/packer/facts-text";

describe("what a file's labels print (ADR 058)", () => {
  it("is the declared jaw and step once confirmed", () => {
    expect(declaredOrGuessed({ name: "scan_final.stl", jaw: "lower", stepNumber: 3, confirmed: true })).toEqual({ jaw: "lower", step: 3, guessed: false });
    // Staff's correction of a matrix: a jaw and no step.
    expect(declaredOrGuessed({ name: "Шаг 05 верх.stl", jaw: "lower", stepNumber: null, confirmed: true })).toEqual({ jaw: "lower", step: null, guessed: false });
  });

  it("is the guess from the name, marked, for a file recorded before declarations", () => {
    expect(declaredOrGuessed({ name: "Subsetup12_Lower.stl" })).toEqual({ jaw: "lower", step: 12, guessed: true });
    // A name that says neither: upper by default, no step — the specification's rule.
    expect(declaredOrGuessed({ name: "scan_final.stl" })).toEqual({ jaw: "upper", step: null, guessed: true });
  });

  it("keeps a prefilled jaw that is not confirmed yet, marked as guessed", () => {
    expect(declaredOrGuessed({ name: "upper.stl", jaw: "upper", stepNumber: null, confirmed: false })).toEqual({ jaw: "upper", step: null, guessed: true });
    expect(declaredOrGuessed({ name: "er20.stl", jaw: null, stepNumber: 20, confirmed: false })).toEqual({ jaw: "upper", step: 20, guessed: true });
  });

  it("reads as the packer's jaw words with a two-digit step", () => {
    const t = (key: string, values?: Record<string, string>) => (key === "packer.facts" ? `${values!.jaw}, шаг ${values!.step}` : key === "packer.jaw.upper" ? "ВЧ" : "НЧ");
    expect(factsText(t, { jaw: "lower", step: 3 })).toBe("НЧ, шаг 03");
    expect(factsText(t, { jaw: "upper", step: 120 })).toBe("ВЧ, шаг 120");
    expect(factsText(t, { jaw: "upper", step: null })).toBe("ВЧ");
  });
});
