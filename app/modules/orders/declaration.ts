import type { FileInfo, FileType } from "~db/schema";
import { detectJaw, detectStep, type Jaw } from "./jaw-and-step";

/** What a file needs declared (ADR 058): a jaw, and an aligner also its step number. */
export const isDeclared = (type: FileType, jaw: FileInfo["jaw"], stepNumber: FileInfo["stepNumber"]) => Boolean(jaw) && (type !== "aligners" || (stepNumber ?? null) !== null);

/** The longest step number a file can be declared for: three digits, as the wizard's field takes them. */
export const STEP_MAX = 999;

export interface FileFacts {
  jaw: Jaw;
  step: number | null;
  /** Still the specification's guess from the name: a file recorded before declarations, or one not yet confirmed. */
  guessed: boolean;
}

/**
 * The jaw and step a file's labels print (ADR 058): the declared ones when it has a jaw, else the
 * specification's guess from its name (upper by default). Staff's files page and the packer show
 * the same, marking what is still only guessed.
 */
export function declaredOrGuessed(file: { name: string; jaw?: Jaw | null; stepNumber?: number | null; confirmed?: boolean }): FileFacts {
  if (file.jaw) return { jaw: file.jaw, step: file.stepNumber ?? null, guessed: file.confirmed !== true };
  return { jaw: detectJaw(file.name), step: detectStep(file.name), guessed: true };
}
