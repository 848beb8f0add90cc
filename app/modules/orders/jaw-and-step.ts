/**
 * The jaw and the step number a file is for, read from its name by the specification's rule
 * (staff-partner-packer §9 "Labels"). Since ADR 058 this is only the prefill: the doctor declares
 * each file's jaw and step, and what cannot be read from the name must be confirmed before payment.
 * Pure, so the rules are unit-tested on real-world file names without a server.
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

/** The jaw a file's name names (the first jaw word decides), or null when it names none. */
export function guessJaw(fileName: string): Jaw | null {
  const words = letterWords(stripExtension(fileName));
  for (const word of words) {
    const jaw = jawOfWord(word);
    if (jaw) return jaw;
  }
  for (const word of words) {
    const jaw = JAW_LETTERS[word];
    if (jaw) return jaw;
  }
  return null;
}

/** The specification's rule: the jaw a file's name names, upper by default. */
export const detectJaw = (fileName: string): Jaw => guessJaw(fileName) ?? "upper";

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
