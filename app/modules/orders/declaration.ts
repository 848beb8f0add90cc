import type { FileInfo, FileType } from "~db/schema";

/** What a file needs declared (ADR 058): a jaw, and an aligner also its step number. */
export const isDeclared = (type: FileType, jaw: FileInfo["jaw"], stepNumber: FileInfo["stepNumber"]) => Boolean(jaw) && (type !== "aligners" || (stepNumber ?? null) !== null);
