import * as z from "zod/mini";
import type { FileType } from "~db/schema";
import { type Skips, type StepId, stepNumber } from "./steps";

/**
 * Ordering again from a patient of a past order (ADR 071): what each kind of new order takes from
 * the old one, where its draft opens and which files it may reuse. Pure, so the page and its tests
 * read the same rules.
 */

export const AGAIN_KINDS = ["replacement", "retainer", "new_stage"] as const;
export type AgainKind = (typeof AGAIN_KINDS)[number];

export interface AgainPlan {
  /** The step the draft opens at: the first one that needs the doctor. */
  opensAt: StepId;
  /** The upload list the chosen files are copied into; null: no file is reused. */
  filesInto: FileType | null;
  /** The kinds of the old patient's files the doctor may choose from. */
  choosesFrom: readonly FileType[];
  /** At least one file must be chosen. */
  needsFiles: boolean;
  /** The patient's skips in the new draft: the parts this kind of order does not make. */
  skips: Skips;
  /** The aligners' material, cut and comment come along (the matrix type always does). */
  keepsAlignerChoices: boolean;
}

export const AGAIN_PLANS: Record<AgainKind, AgainPlan> = {
  // Lost or broken aligners: the same models made again. Opens on the aligners' upload step, where
  // the copied files are listed with their jaw and step, then the material and cut as they were.
  replacement: {
    opensAt: "aligners",
    filesInto: "aligners",
    choosesFrom: ["aligners"],
    needsFiles: true,
    skips: { skipMatrix: true, skipAligners: false, skipRetainers: true },
    keepsAlignerChoices: true,
  },
  // A retainer after treatment: made on a model the doctor picks (usually the last step's), or on
  // new scans uploaded at the step it opens on.
  retainer: {
    opensAt: "retainers",
    filesInto: "retainer",
    choosesFrom: ["aligners", "retainer"],
    needsFiles: false,
    skips: { skipMatrix: true, skipAligners: true, skipRetainers: false },
    keepsAlignerChoices: false,
  },
  // A new stage of treatment: new scans, so no file is reused; the choices stay as they were.
  new_stage: {
    opensAt: "matrix",
    filesInto: null,
    choosesFrom: [],
    needsFiles: false,
    skips: { skipMatrix: false, skipAligners: false, skipRetainers: false },
    keepsAlignerChoices: true,
  },
};

/** The step number a kind's draft opens at. */
export const openingStep = (kind: AgainKind) => stepNumber(AGAIN_PLANS[kind].opensAt);

/** At most this many files are offered or accepted in one form (an order holds at most 300, ADR 058). */
export const AGAIN_MAX_FILES = 300;

/** The form: the kind, and the storage paths of the files chosen (each a checkbox). */
export const againSchema = z.object({
  kind: z.enum(AGAIN_KINDS, { error: "orderAgain.errors.kindRequired" }),
  files: z.pipe(
    z.optional(z.unknown()),
    z.transform((value) => [...new Set((Array.isArray(value) ? value : value === undefined ? [] : [value]).filter((item): item is string => typeof item === "string"))]),
  ),
});

export interface OfferedFile {
  type: FileType;
  storagePath: string;
  size: number;
}

/** Why the chosen files cannot make this kind of order; null when they can. Messages are translation keys. */
export function chosenFilesProblem(kind: AgainKind, chosen: readonly string[], offered: readonly OfferedFile[]): string | null {
  const plan = AGAIN_PLANS[kind];
  if (plan.filesInto === null) return null; // a new stage reuses no file: whatever was ticked is left
  if (chosen.length > AGAIN_MAX_FILES) return "orderAgain.errors.tooManyFiles";
  const byPath = new Map(offered.map((file) => [file.storagePath, file]));
  for (const path of chosen) {
    const file = byPath.get(path);
    if (!file) return "orderAgain.errors.unknownFile";
    if (!plan.choosesFrom.includes(file.type)) return kind === "replacement" ? "orderAgain.errors.onlyAligners" : "orderAgain.errors.unknownFile";
  }
  if (plan.needsFiles && chosen.length === 0) return "orderAgain.errors.chooseAligners";
  return null;
}

/** Whether the copies fit an order's file cap beside what it already holds (DESIGN §4.14). */
export function withinOrderCap(sizes: readonly number[], usage: { files: number; bytes: number }, limits: { orderMaxFiles: number; orderMaxBytes: number }): boolean {
  const bytes = sizes.reduce((sum, size) => sum + size, 0);
  return usage.files + sizes.length <= limits.orderMaxFiles && usage.bytes + bytes <= limits.orderMaxBytes;
}
