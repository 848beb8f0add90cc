/**
 * How a file's jaw and step read on labels, the packer's list and staff's pages. On its own, so the
 * back-office's pages carry these few lines without the rules that read names.
 */

/** Step numbers are shown with at least 2 digits: 1 → "01", 12 → "12", 100 → "100". */
export const formatStep = (step: number) => String(step).padStart(2, "0");

/** A file's jaw and step as packers and staff read them: "ВЧ, шаг 03", or only "ВЧ" without a step. */
export function factsText(t: (key: string, values?: Record<string, string>) => string, facts: { jaw: "upper" | "lower"; step: number | null }): string {
  const jaw = t(`packer.jaw.${facts.jaw}`);
  return facts.step === null ? jaw : t("packer.facts", { jaw, step: formatStep(facts.step) });
}
