import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import { AGAIN_PLANS, againSchema, chosenFilesProblem, type OfferedFile, openingStep, withinOrderCap } from "./again";
import { navigate } from "./navigation";
import { LAST_STEP, stepNumber } from "./steps";

const offered: OfferedFile[] = [
  { type: "aligners", storagePath: "order_a/A_1/aligners/upper_3.stl", size: 100 },
  { type: "aligners", storagePath: "order_a/A_1/aligners/lower_3.stl", size: 120 },
  { type: "retainer", storagePath: "order_a/A_1/retainer/upper_r.stl", size: 90 },
  { type: "matrix", storagePath: "order_a/A_1/matrix/scan.stl", size: 300 },
];

const form = (entries: Array<[string, string]>) => {
  const data = new FormData();
  for (const [name, value] of entries) data.append(name, value);
  return parseWithZod(data, { schema: againSchema });
};

describe("ordering again: the form", () => {
  it("reads the kind and every ticked file once", () => {
    const submission = form([
      ["kind", "replacement"],
      ["files", "a.stl"],
      ["files", "b.stl"],
      ["files", "a.stl"],
    ]);
    expect(submission.status === "success" && submission.value).toEqual({ kind: "replacement", files: ["a.stl", "b.stl"] });
  });

  it("refuses a missing or unknown kind with the doctor's message", () => {
    for (const entries of [[], [["kind", "crown"]]] as Array<Array<[string, string]>>) {
      const submission = form(entries);
      expect(submission.status).toBe("error");
      expect(submission.status === "error" && submission.error?.kind).toEqual(["orderAgain.errors.kindRequired"]);
    }
  });
});

describe("ordering again: the files a kind may reuse", () => {
  it("a replacement needs at least one aligner file, and only aligner files", () => {
    expect(chosenFilesProblem("replacement", [], offered)).toBe("orderAgain.errors.chooseAligners");
    expect(chosenFilesProblem("replacement", [offered[0]!.storagePath, offered[1]!.storagePath], offered)).toBeNull();
    expect(chosenFilesProblem("replacement", [offered[0]!.storagePath, offered[2]!.storagePath], offered)).toBe("orderAgain.errors.onlyAligners");
  });

  it("a retainer may reuse an aligner or retainer model, or none; not a matrix", () => {
    expect(chosenFilesProblem("retainer", [], offered)).toBeNull();
    expect(chosenFilesProblem("retainer", [offered[1]!.storagePath, offered[2]!.storagePath], offered)).toBeNull();
    expect(chosenFilesProblem("retainer", [offered[3]!.storagePath], offered)).toBe("orderAgain.errors.unknownFile");
  });

  it("a file that is not the patient's is refused, whatever the kind that reuses files", () => {
    const forged = "order_other-clinic/B_1/aligners/secret.stl";
    expect(chosenFilesProblem("replacement", [offered[0]!.storagePath, forged], offered)).toBe("orderAgain.errors.unknownFile");
    expect(chosenFilesProblem("retainer", [forged], offered)).toBe("orderAgain.errors.unknownFile");
    expect(chosenFilesProblem("replacement", ["../../etc/passwd"], [])).toBe("orderAgain.errors.unknownFile");
  });

  it("a new stage reuses no file: ticked ones are left, never refused", () => {
    expect(chosenFilesProblem("new_stage", [offered[0]!.storagePath, "anything"], offered)).toBeNull();
    expect(AGAIN_PLANS.new_stage.filesInto).toBeNull();
  });
});

describe("ordering again: where the draft opens and what it skips", () => {
  it("opens at the step that needs the doctor", () => {
    expect(openingStep("replacement")).toBe(7); // the aligners' upload, where the copies are listed
    expect(openingStep("retainer")).toBe(10);
    expect(openingStep("new_stage")).toBe(5); // the scans' upload
  });

  it("a replacement goes from its files through the material and cut to the summary, past the retainers it skips", () => {
    const skips = AGAIN_PLANS.replacement.skips;
    const steps = [openingStep("replacement")];
    while (steps.at(-1)! < LAST_STEP) steps.push(navigate(steps.at(-1)!, "next", skips).step);
    expect(steps).toEqual([stepNumber("aligners"), stepNumber("material"), stepNumber("cut"), stepNumber("retainers"), stepNumber("summary")]);
  });

  it("a retainer passes over the aligners' material and cut", () => {
    const skips = AGAIN_PLANS.retainer.skips;
    expect(navigate(openingStep("retainer"), "next", skips).step).toBe(LAST_STEP);
    expect(navigate(openingStep("retainer"), "back", skips).step).toBe(stepNumber("aligners"));
  });
});

describe("ordering again: the order's file cap", () => {
  const limits = { orderMaxFiles: 3, orderMaxBytes: 1000 };
  it("counts the copies beside what the order holds", () => {
    expect(withinOrderCap([100, 200], { files: 0, bytes: 0 }, limits)).toBe(true);
    expect(withinOrderCap([100, 200], { files: 1, bytes: 700 }, limits)).toBe(true);
    expect(withinOrderCap([100, 200], { files: 2, bytes: 0 }, limits)).toBe(false);
    expect(withinOrderCap([100, 200], { files: 0, bytes: 701 }, limits)).toBe(false);
  });
});
