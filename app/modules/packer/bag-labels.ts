import type { FileType } from "~db/schema";
import { detectJaw, detectStep, type Jaw } from "~/modules/orders/jaw-and-step";
import { declaredOrGuessed } from "~/modules/orders/declaration";
import { formatStep } from "./facts-text";
import { bagCode } from "./bag-code";

export { detectJaw, detectStep, type Jaw };

/**
 * Bag labels (staff-partner-packer §9 "Labels"): each patient's files are paired per step number as
 * upper jaw (ВЧ) and lower jaw (НЧ); one label per file, i.e. per step and jaw. Pure, so the rules are
 * unit-tested on real-world file names without a server.
 */

export { formatStep } from "./facts-text";

export interface StepPair<F> {
  step: number | null;
  upper: F | null;
  lower: F | null;
}

/**
 * Groups files by step number into upper/lower pairs, steps ascending (files without a number first).
 * A file whose slot is already taken (a second "Шаг 01 верх") opens another pair for the same step, so
 * no file is ever dropped; a step with one jaw only keeps the other side null.
 */
export function pairByStep<F>(files: readonly F[], nameOf: (file: F) => string, factsOf: (file: F) => { jaw: Jaw; step: number | null } = (file) => guessedFacts(nameOf(file))): StepPair<F>[] {
  const pairs: StepPair<F>[] = [];
  for (const file of files) {
    const { step, jaw } = factsOf(file);
    const free = pairs.find((pair) => pair.step === step && pair[jaw] === null);
    if (free) free[jaw] = file;
    else pairs.push({ step, upper: jaw === "upper" ? file : null, lower: jaw === "lower" ? file : null });
  }
  // Stable sort: pairs of the same step keep upload order.
  return pairs.sort((a, b) => (a.step ?? -1) - (b.step ?? -1));
}

const guessedFacts = (name: string) => ({ jaw: detectJaw(name), step: detectStep(name) });

/** A file on a label: its name, and the jaw and step the doctor declared for it (ADR 058) when it has them. */
export type LabelFile = string | { name: string; jaw?: Jaw | null; stepNumber?: number | null };
const labelFileName = (file: LabelFile) => (typeof file === "string" ? file : file.name);

/** The declared jaw and step of a file when it has them; an older file's guess from its name (the specification's rule). */
export function jawAndStepOf(file: LabelFile): { jaw: Jaw; step: number | null } {
  const { jaw, step } = declaredOrGuessed(typeof file === "string" ? { name: file } : file);
  return { jaw, step };
}

const leadingNumber = (folder: string) => {
  const match = /^\d+/.exec(folder);
  return match ? Number.parseInt(match[0], 10) : Number.POSITIVE_INFINITY;
};
const collator = new Intl.Collator("en", { numeric: true, sensitivity: "base" });

/**
 * Patients in packing order: by the numeric prefix of their folder name, then numerically by the
 * whole name, so our "ab12_2" comes before "ab12_10" and an older "2_Ivanov" before "10_Petrov".
 */
export function comparePatientFolders(a: string, b: string): number {
  const prefixA = leadingNumber(a);
  const prefixB = leadingNumber(b);
  if (prefixA !== prefixB) return prefixA < prefixB ? -1 : 1;
  return collator.compare(a, b);
}

export function sortPatients<P extends { folderName: string }>(patients: readonly P[]): P[] {
  return [...patients].sort((a, b) => comparePatientFolders(a.folderName, b.folderName));
}

/** The order the bags are packed and labels printed in. */
export const LABEL_KINDS: readonly FileType[] = ["matrix", "aligners", "retainer"];

export interface LabelPatient {
  patientName: string;
  folderName: string;
  files: Record<FileType, readonly LabelFile[]>;
}

export interface BagLabel {
  kind: FileType;
  orderNumber: string;
  patientName: string;
  folderName: string;
  jaw: Jaw;
  /** "01"; null when the file name carries no step number. */
  step: string | null;
  fileName: string;
  /** The patient folder's path on the production file server, printed as text. */
  folderPath: string;
  /** The bag's code (ADR 103): what the label's QR code carries and the packer scans. */
  code: string;
}

/** The path of the patient's folder on the production file server. */
export const bagFolderPath = (orderCode: string, folderName: string) => `${orderCode}/${folderName}`;

/** Every bag label of an order, patients in folder order, then matrix, aligners, retainers, steps ascending, upper before lower. */
export function buildBagLabels(order: { id: string; number: string; code: string }, patients: readonly LabelPatient[]): BagLabel[] {
  const labels: BagLabel[] = [];
  for (const [place, patient] of sortPatients(patients).entries()) {
    for (const kind of LABEL_KINDS) {
      for (const pair of pairByStep(patient.files[kind], labelFileName, jawAndStepOf)) {
        for (const jaw of ["upper", "lower"] as const) {
          const file = pair[jaw];
          if (file === null) continue;
          const fileName = labelFileName(file);
          labels.push({
            kind,
            orderNumber: order.number,
            patientName: patient.patientName,
            folderName: patient.folderName,
            jaw,
            step: pair.step === null ? null : formatStep(pair.step),
            fileName,
            folderPath: bagFolderPath(order.code, patient.folderName),
            code: bagCode(order.id, { patient: place + 1, kind, jaw, step: pair.step }),
          });
        }
      }
    }
  }
  return labels;
}
