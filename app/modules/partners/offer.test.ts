import { describe, expect, it } from "vitest";
import { LANGUAGES } from "~/modules/i18n/languages";
import { offerDocument, OFFER_TEXTS } from "./offer.server";

const placeholders = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((match) => match[1]);

describe("the partner offer agreement", () => {
  const russian = OFFER_TEXTS.ru;

  it("has numbered sections with clauses", () => {
    expect(russian.sections.length).toBeGreaterThanOrEqual(8);
    russian.sections.forEach((section, index) => {
      expect(section.title.startsWith(`${index + 1}. `)).toBe(true);
      section.clauses.forEach((clause, clauseIndex) => expect(clause.startsWith(`${index + 1}.${clauseIndex + 1}. `)).toBe(true));
    });
    const text = JSON.stringify(russian);
    // The rules the application enforces are the rules the offer states.
    for (const rule of ["10 %", "одного года", "30 дней", "в рублях", "собственному коду", "квартал"]) expect(text).toContain(rule);
  });

  it.each(LANGUAGES.filter((language) => language !== "ru"))("is translated into %s with the same structure and placeholders", (language) => {
    const translation = OFFER_TEXTS[language];
    expect(translation.preamble).toHaveLength(russian.preamble.length);
    expect(translation.sections.map((section) => section.clauses.length)).toEqual(russian.sections.map((section) => section.clauses.length));
    translation.sections.forEach((section, index) => {
      expect(section.title.split(" ")[0]).toBe(russian.sections[index]!.title.split(" ")[0]);
      section.clauses.forEach((clause, clauseIndex) => {
        const source = russian.sections[index]!.clauses[clauseIndex]!;
        expect(clause.split(" ")[0], `${language} ${clause}`).toBe(source.split(" ")[0]);
        expect(placeholders(clause), `${language} ${clause}`).toEqual(placeholders(source));
        expect(clause.trim()).not.toBe("");
      });
    });
  });

  it("fills in the support e-mail", () => {
    const document = offerDocument("ru", { supportEmail: "partners@aligner.test" });
    expect(JSON.stringify(document)).toContain("partners@aligner.test");
    expect(JSON.stringify(document)).not.toContain("{{");
  });
});
