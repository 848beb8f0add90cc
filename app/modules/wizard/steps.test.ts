import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { FIRST_STEP, LAST_STEP, STEPS, stepAt, stepNamed, UPLOAD_STEPS } from "./steps";

/**
 * The step table is the only place that knows a step by its number (ADR 060): the second block
 * fails on a comparison, an assignment or a list of literal step numbers anywhere else in the app.
 */

const APP_DIR = path.resolve(__dirname, "../..");
const TABLE = path.resolve(__dirname, "steps.ts");

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(file);
    return /\.(ts|tsx)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [file] : [];
  });
}

/** A name that holds a wizard step (`step`, `order.wizard_step`, `fromStep`), not a file's aligner step (`stepNumber`). */
const STEP_NAME = String.raw`\b\w*(?:step|Step)\b(?!\s*\()`;
const COMPARISON = String.raw`(?:===|!==|==|!=|>=|<=|<|>)`;
const LITERAL_STEP = [
  new RegExp(String.raw`${STEP_NAME}\s*${COMPARISON}\s*\d+\b`),
  new RegExp(String.raw`\b\d+\s*${COMPARISON}\s*${STEP_NAME}`),
  new RegExp(String.raw`setWizardStep\([^)]*,\s*\d+\s*\)`),
  new RegExp(String.raw`\b(?:wizard_step|wizardStep|step)\s*:\s*\d+\b`),
  // A list of step numbers, on a line that speaks of steps.
  new RegExp(String.raw`[Ss]tep.*\[\s*(?:[1-9]|1[01])\s*(?:,\s*(?:[1-9]|1[01])\s*)+\]|\[\s*(?:[1-9]|1[01])\s*(?:,\s*(?:[1-9]|1[01])\s*)+\].*[Ss]tep`),
];

/** The lines of a source text that name a wizard step by its number. */
export const literalStepLines = (text: string): string[] => text.split("\n").filter((line) => !/^\s*(\/\/|\*|\/\*)/.test(line) && LITERAL_STEP.some((pattern) => pattern.test(line)));

describe("the step table", () => {
  it("numbers the steps 1 to 11 in order, with unique names", () => {
    expect(STEPS.map((step) => step.number)).toEqual(Array.from({ length: 11 }, (_, index) => index + 1));
    expect(new Set(STEPS.map((step) => step.id)).size).toBe(STEPS.length);
    expect([FIRST_STEP, LAST_STEP]).toEqual([1, 11]);
  });

  it("has the specification's three upload steps, each skipping forward to a later step", () => {
    expect(UPLOAD_STEPS.map((step) => [step.number, step.upload.type])).toEqual([
      [5, "matrix"],
      [7, "aligners"],
      [10, "retainer"],
    ]);
    for (const step of UPLOAD_STEPS) expect(stepNamed(step.upload.skip.to).number).toBeGreaterThan(step.number);
  });

  it("holds the skip while the step's files go up where the specification says so: step 10 only", () => {
    expect(UPLOAD_STEPS.map((step) => [step.number, step.upload.skip.heldWhileUploading ?? false])).toEqual([
      [5, false],
      [7, false],
      [10, true],
    ]);
  });

  it("reads anything that is not a step as the first step", () => {
    expect(stepAt(0).number).toBe(1);
    expect(stepAt(12).number).toBe(1);
    expect(stepAt(Number.NaN).number).toBe(1);
  });
});

describe("no literal step number outside the table", () => {
  it("finds the shapes it looks for", () => {
    for (const line of ["if (step === 4) return;", "const x = 5 <= step;", "await setWizardStep(db, order.id, 11);", "wizard_step: 11,", "for (const step of [5, 7, 10])", "order.wizard_step > 2"]) {
      expect(literalStepLines(line), line).toEqual([line]);
    }
    for (const line of ["if (file.stepNumber === 20) return;", "// step 4 is the patient", "const steps = [];", "if (stepAt(step).kind === \"patient\")"]) {
      expect(literalStepLines(line), line).toEqual([]);
    }
  });

  it("has none in the app's code", () => {
    const found = sourceFiles(APP_DIR)
      .filter((file) => file !== TABLE)
      .flatMap((file) => literalStepLines(fs.readFileSync(file, "utf8")).map((line) => `${path.relative(APP_DIR, file)}: ${line.trim()}`));
    expect(found).toEqual([]);
  });
});
