import type { Language } from "~/modules/i18n/languages";

/**
 * Small flags: emoji flags do not render on many office PCs (no colour emoji font). Drawn by the
 * stylesheet (`.flag-{language}`, cached with it), so each page carries one element per flag
 * instead of an inline SVG of five.
 */
export function Flag({ language }: { language: Language }) {
  return <span className={`flag flag-${language}`} aria-hidden="true" />;
}
