import type { FileType } from "~db/schema";

/**
 * Bag labels (staff-partner-packer §9 "Labels"): each patient's files are paired per step number as
 * upper jaw (ВЧ) and lower jaw (НЧ); one label per file, i.e. per step and jaw. Pure, so the rules are
 * unit-tested on real-world file names without a server.
 */

export type Jaw = "upper" | "lower";

/**
 * Words (or word starts) that name a jaw: Russian, English, German, French, Spanish, Italian, Latin,
 * and our own transliteration of stored names. Compared without case and accents.
 */
const JAW_WORDS: Record<Jaw, { exact: readonly string[]; prefixes: readonly string[] }> = {
  lower: {
    exact: ["нч", "ниж", "lo", "low", "lj", "mand", "md", "uk", "inf", "unten", "bas", "nch"],
    prefixes: ["нижн", "низ", "lower", "bottom", "mandib", "unterkiefer", "inferior", "inferieur", "nizh", "niz"],
  },
  upper: {
    exact: ["вч", "up", "uj", "max", "mx", "ok", "sup", "top", "oben", "haut", "vch"],
    prefixes: ["верх", "upper", "maxil", "oberkiefer", "superior", "superieur", "verkh", "verh"],
  },
};
/** Single letters ("01_U", "Step3L") count only when no real jaw word is in the name. */
const JAW_LETTERS: Record<string, Jaw> = { u: "upper", l: "lower", в: "upper", н: "lower" };

/** Splits "SubsetupLower03" or "Шаг05_верх" into lower-case letter words: ["subsetup", "lower"], ["шаг", "верх"]. */
function letterWords(name: string): string[] {
  return (
    name
      .replace(/(\p{Ll})(\p{Lu})/gu, "$1 $2")
      .toLowerCase()
      // "ё" → "е", "é" → "e"; no jaw word needs "й".
      .normalize("NFD")
      .replace(/\p{M}/gu, "")
      // "н/ч", "н.ч.", "в-ч" are the abbreviations ВЧ/НЧ written with a separator.
      .replace(/(?<!\p{L})([нв])[\s./_-]?ч(?!\p{L})/gu, " $1ч ")
      .split(/[^\p{L}]+/u)
      .filter(Boolean)
  );
}

function jawOfWord(word: string): Jaw | null {
  for (const jaw of ["lower", "upper"] as const) {
    const { exact, prefixes } = JAW_WORDS[jaw];
    if (exact.includes(word) || prefixes.some((prefix) => word.startsWith(prefix))) return jaw;
  }
  return null;
}

/** The jaw a file is for, from words in its name; the first jaw word decides, upper by default. */
export function detectJaw(fileName: string): Jaw {
  const words = letterWords(stripExtension(fileName));
  for (const word of words) {
    const jaw = jawOfWord(word);
    if (jaw) return jaw;
  }
  for (const word of words) {
    const jaw = JAW_LETTERS[word];
    if (jaw) return jaw;
  }
  return "upper";
}

const STEP_WORDS = /(?<!\p{L})(?:шаг|этап|step|stage|subsetup|setup|aligner|st|s|№|#)[\s_.-]*(\d{1,3})(?!\d)/iu;
/** Dates such as 2024-05-01 or 01.05.24 are not step numbers. */
const DATES = /\d{4}[-._]\d{1,2}[-._]\d{1,2}|\d{1,2}[-._]\d{1,2}[-._]\d{2,4}/g;

function stripExtension(fileName: string): string {
  return fileName.replace(/\.[a-z0-9]{1,5}$/i, "");
}

/**
 * The step number in a file name: the number after a step word ("Шаг 05", "Subsetup3", "stage_12"),
 * otherwise the last stand-alone number of at most 3 digits (so dates, timestamps and "v2" versions
 * do not count). null when the name has none (matrices and retainers usually).
 */
export function detectStep(fileName: string): number | null {
  const base = stripExtension(fileName).replace(/(\p{Ll})(\p{Lu})/gu, "$1 $2").replace(DATES, " ");
  const named = STEP_WORDS.exec(base);
  if (named) return Number.parseInt(named[1]!, 10);
  const numbers = [...base.matchAll(/(?<![\d])(\d+)(?![\d])/g)].filter((match) => {
    if (match[1]!.length > 3) return false;
    const before = base.slice(0, match.index);
    return !/(?:^|[^\p{L}])(?:v|ver|версия)[\s_.-]?$/iu.test(before);
  });
  const last = numbers.at(-1);
  return last ? Number.parseInt(last[1]!, 10) : null;
}

/** Step numbers are shown with at least 2 digits: 1 → "01", 12 → "12", 100 → "100". */
export const formatStep = (step: number) => String(step).padStart(2, "0");

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
export function pairByStep<F>(files: readonly F[], nameOf: (file: F) => string): StepPair<F>[] {
  const pairs: StepPair<F>[] = [];
  for (const file of files) {
    const name = nameOf(file);
    const step = detectStep(name);
    const jaw = detectJaw(name);
    const free = pairs.find((pair) => pair.step === step && pair[jaw] === null);
    if (free) free[jaw] = file;
    else pairs.push({ step, upper: jaw === "upper" ? file : null, lower: jaw === "lower" ? file : null });
  }
  // Stable sort: pairs of the same step keep upload order.
  return pairs.sort((a, b) => (a.step ?? -1) - (b.step ?? -1));
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
  files: Record<FileType, readonly string[]>;
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
  /** What the label's QR code carries: the order code and the patient folder. */
  qrText: string;
}

/** What a bag's QR code carries: the path of the patient's folder on the production file server. */
export const bagQrText = (orderCode: string, folderName: string) => `${orderCode}/${folderName}`;

/** Every bag label of an order, patients in folder order, then matrix, aligners, retainers, steps ascending, upper before lower. */
export function buildBagLabels(order: { number: string; code: string }, patients: readonly LabelPatient[]): BagLabel[] {
  const labels: BagLabel[] = [];
  for (const patient of sortPatients(patients)) {
    for (const kind of LABEL_KINDS) {
      for (const pair of pairByStep(patient.files[kind], (name) => name)) {
        for (const jaw of ["upper", "lower"] as const) {
          const fileName = pair[jaw];
          if (fileName === null) continue;
          labels.push({
            kind,
            orderNumber: order.number,
            patientName: patient.patientName,
            folderName: patient.folderName,
            jaw,
            step: pair.step === null ? null : formatStep(pair.step),
            fileName,
            qrText: bagQrText(order.code, patient.folderName),
          });
        }
      }
    }
  }
  return labels;
}
