import type { Language } from "~/modules/i18n/languages";
import { interpolate } from "~/modules/i18n/translate";
import de from "./offer/de.json";
import en from "./offer/en.json";
import es from "./offer/es.json";
import fr from "./offer/fr.json";
import it from "./offer/it.json";
import ru from "./offer/ru.json";

/**
 * The partner offer agreement shown on /refdoc. A legal document rather than interface texts: it is
 * kept per language beside this module (the Russian text is binding, the others are translations
 * for convenience) and read only by /refdoc's loader, so its ~10 KB never ride along with every page's
 * interface texts. offer.test.ts checks that every translation has the same structure.
 */
export interface OfferDocument {
  title: string;
  edition: string;
  preamble: string[];
  sections: Array<{ title: string; clauses: string[] }>;
}

export const OFFER_TEXTS: Record<Language, OfferDocument> = { ru, en, de, es, fr, it };

export function offerDocument(language: Language, values: { supportEmail: string }): OfferDocument {
  const source = OFFER_TEXTS[language] ?? OFFER_TEXTS.ru;
  const fill = (text: string) => interpolate(text, values);
  return {
    title: fill(source.title),
    edition: fill(source.edition),
    preamble: source.preamble.map(fill),
    sections: source.sections.map((section) => ({ title: fill(section.title), clauses: section.clauses.map(fill) })),
  };
}
