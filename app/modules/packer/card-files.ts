import type { Jaw } from "~/modules/orders/jaw-and-step";
import type { FileFacts } from "~/modules/orders/declaration";
import { formatStep } from "./facts-text";

/**
 * How the packer's list shows a patient's files of one kind (ADR 098): a few are listed by name; past
 * CARD_FILES_LISTED they fold into each jaw's steps ("ВЧ: шаги 01–20") with how many of them are
 * still read from their names, and only the files a packer must look at keep their line: two that
 * share a jaw and step. The bag labels' page lists every file. Pure, for the unit tests.
 */
export const CARD_FILES_LISTED = 4;

export interface JawSteps {
  jaw: Jaw;
  /** Consecutive steps as "01–10", a lone one as "12", in order. */
  ranges: string[];
  /** How many of this jaw's files have no step. */
  withoutStep: number;
}

export interface FoldedFiles<F> {
  count: number;
  jaws: JawSteps[];
  /** How many have their jaw and step only from their names (not declared). */
  guessed: number;
  /** Files listed by name after the summary: those sharing their jaw and step with another. */
  named: F[];
}

const JAWS: readonly Jaw[] = ["upper", "lower"];

/** Steps sorted and joined into runs: [1, 2, 3, 5] → ["01–03", "05"]. */
export function stepRanges(steps: readonly number[]): string[] {
  const sorted = [...new Set(steps)].sort((a, b) => a - b);
  const ranges: string[] = [];
  for (let start = 0; start < sorted.length; ) {
    let end = start;
    while (end + 1 < sorted.length && sorted[end + 1] === sorted[end]! + 1) end += 1;
    ranges.push(end === start ? formatStep(sorted[start]!) : `${formatStep(sorted[start]!)}–${formatStep(sorted[end]!)}`);
    start = end + 1;
  }
  return ranges;
}

/** The folded form of a kind's files, or null when they are few enough to list whole. */
export function foldFiles<F extends FileFacts>(files: readonly F[]): FoldedFiles<F> | null {
  if (files.length <= CARD_FILES_LISTED) return null;
  const key = (file: F) => `${file.jaw}/${file.step ?? ""}`;
  const seen = new Map<string, number>();
  for (const file of files) if (file.step !== null) seen.set(key(file), (seen.get(key(file)) ?? 0) + 1);
  const jaws = JAWS.flatMap((jaw): JawSteps[] => {
    const own = files.filter((file) => file.jaw === jaw);
    if (own.length === 0) return [];
    const steps = own.flatMap((file) => (file.step === null ? [] : [file.step]));
    return [{ jaw, ranges: stepRanges(steps), withoutStep: own.length - steps.length }];
  });
  const named = files.filter((file) => file.step !== null && (seen.get(key(file)) ?? 0) > 1);
  return { count: files.length, jaws, guessed: files.filter((file) => file.guessed).length, named };
}
