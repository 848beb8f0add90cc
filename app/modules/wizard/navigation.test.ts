import { describe, expect, it } from "vitest";
import { clampStep, countsAsSkipped, hasBackButton, navigate, NO_SKIPS, progressPercent, skipClearedByUpload } from "./navigation";

const matrixSkipped = { ...NO_SKIPS, skipMatrix: true };
const alignersSkipped = { ...NO_SKIPS, skipAligners: true };

/** One test per row of the navigation table in DESIGN §4.9. */
describe("wizard navigation table", () => {
  it("n, next → n + 1, at most 11", () => {
    for (let n = 1; n <= 10; n++) expect(navigate(n, "next", NO_SKIPS)).toEqual({ step: n + 1 });
    expect(navigate(11, "next", NO_SKIPS)).toEqual({ step: 11 });
  });

  it("n, back → n − 1, at least 1, with no back button on 1 and 5", () => {
    for (const n of [2, 3, 4, 6, 7, 8, 9, 10, 11]) expect(navigate(n, "back", NO_SKIPS)).toEqual({ step: n - 1 });
    expect(navigate(1, "back", NO_SKIPS)).toEqual({ step: 1 });
    expect(navigate(5, "back", NO_SKIPS)).toEqual({ step: 5 });
    expect([1, 5].map(hasBackButton)).toEqual([false, false]);
  });

  it("5, skip matrix → 7 and sets the patient's skip_matrix; steps 5–6 count as skipped", () => {
    expect(navigate(5, "skip_matrix", NO_SKIPS)).toEqual({ step: 7, setSkips: { skipMatrix: true } });
    expect([5, 6].map((step) => countsAsSkipped(step, matrixSkipped))).toEqual([true, true]);
  });

  it("7, skip aligners → 10 and sets skip_aligners; steps 7–9 count as skipped", () => {
    expect(navigate(7, "skip_aligners", NO_SKIPS)).toEqual({ step: 10, setSkips: { skipAligners: true } });
    expect([7, 8, 9].map((step) => countsAsSkipped(step, alignersSkipped))).toEqual([true, true, true]);
  });

  it("10, skip retainers → 11", () => {
    expect(navigate(10, "skip_retainers", NO_SKIPS)).toEqual({ step: 11, setSkips: { skipRetainers: true } });
  });

  it("7, back with the matrix skipped → 5", () => {
    expect(navigate(7, "back", matrixSkipped)).toEqual({ step: 5 });
  });

  it("8, next with the aligners skipped → 10", () => {
    expect(navigate(8, "next", alignersSkipped)).toEqual({ step: 10 });
  });

  it("10, back with the aligners skipped → 7 (the aligner upload)", () => {
    expect(navigate(10, "back", alignersSkipped)).toEqual({ step: 7 });
  });

  it("5–11, back to add patient → 4", () => {
    for (let n = 5; n <= 11; n++) expect(navigate(n, "back_to_patient", NO_SKIPS)).toEqual({ step: 4 });
  });

  it("4, add patient → stays on 4; next → 5 for that patient", () => {
    expect(navigate(4, "add_patient", NO_SKIPS)).toEqual({ step: 4 });
    expect(navigate(4, "next", NO_SKIPS)).toEqual({ step: 5 });
  });
});

describe("wizard navigation around skipped steps", () => {
  it("passes over the matrix type when the matrix is skipped", () => {
    expect(navigate(5, "next", matrixSkipped)).toEqual({ step: 7 });
  });
  it("ignores a skip button sent from another step", () => {
    expect(navigate(3, "skip_matrix", NO_SKIPS)).toEqual({ step: 3 });
    expect(navigate(9, "skip_retainers", NO_SKIPS)).toEqual({ step: 9 });
    expect(navigate(3, "back_to_patient", NO_SKIPS)).toEqual({ step: 3 });
  });
  it("clears the matching skip flag when a file is uploaded", () => {
    expect(skipClearedByUpload("matrix")).toEqual({ skipMatrix: false });
    expect(skipClearedByUpload("aligners")).toEqual({ skipAligners: false });
    expect(skipClearedByUpload("retainer")).toEqual({ skipRetainers: false });
  });
  it("restores only whole steps from 1 to 11", () => {
    expect(clampStep(7)).toBe(7);
    expect(clampStep("11")).toBe(11);
    for (const bad of [0, 12, 2.5, "x", null, undefined, -1]) expect(clampStep(bad)).toBe(1);
  });
  it("shows progress as step / 11", () => {
    expect(progressPercent(1)).toBe(9);
    expect(progressPercent(11)).toBe(100);
  });
});
