import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { LANGUAGES } from "./languages";

/** Every text exists in all six languages, with the same placeholders (DESIGN §4.30). */

type Tree = { [key: string]: string | Tree };
const LOCALES_DIR = path.resolve(__dirname, "../../../locales");

function flatten(tree: Tree, prefix = ""): Record<string, string> {
  return Object.entries(tree).reduce<Record<string, string>>((all, [key, value]) => {
    const name = prefix ? `${prefix}.${key}` : key;
    return typeof value === "string" ? { ...all, [name]: value } : { ...all, ...flatten(value, name) };
  }, {});
}

const namespaces = fs.readdirSync(path.join(LOCALES_DIR, "ru")).filter((file) => file.endsWith(".json"));
const load = (language: string, file: string) => flatten(JSON.parse(fs.readFileSync(path.join(LOCALES_DIR, language, file), "utf8")));
const placeholders = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((match) => match[1]).sort();

/** Plural forms are keys `<base>_<category>` of a base that has an `_other` form (so `too_many`, an error code, is not one). */
const PLURAL_SUFFIX = /_(zero|one|two|few|many|other)$/;
const pluralBase = (key: string) => key.replace(PLURAL_SUFFIX, "");
const OTHER_FORMS = new Set(
  [...LANGUAGES].flatMap((language) => namespaces.flatMap((file) => Object.keys(load(language, file)).filter((key) => key.endsWith("_other")).map(pluralBase))),
);
const isSingle = (key: string) => !(PLURAL_SUFFIX.test(key) && OTHER_FORMS.has(pluralBase(key)));
const pluralFamilies = (texts: Record<string, string>) => [...new Set(Object.keys(texts).filter((key) => !isSingle(key)).map(pluralBase))].sort();

/**
 * A word with a bracketed ending: Russian plural or gender endings (файл(ов), согласен(на),
 * получил(а)) and their kin in the other languages (file(s), Datei(en), archivo(s), fichier(s)).
 */
const SHORTCUT = /[\p{L}]\((ов|ев|ей|а|я|ы|и|на|ая|ое|ые|ь|s|es|e|en|n|er|in|innen|i|o|a|x|le|la|os|as|e?s)\)/giu;
export const shortcuts = (text: string) => [...text.matchAll(SHORTCUT)].map((match) => match[0]);

describe.each(namespaces)("locale namespace %s", (file) => {
  const source = load("ru", file);

  it("has texts", () => {
    expect(Object.keys(source).length).toBeGreaterThan(0);
  });

  it.each(LANGUAGES.filter((language) => language !== "ru"))("is complete in %s", (language) => {
    const target = load(language, file);
    // Plural forms differ by language (ru: one/few/many/other, en: one/other…): compared as families below.
    expect(Object.keys(target).filter(isSingle).sort()).toEqual(Object.keys(source).filter(isSingle).sort());
    expect(pluralFamilies(target)).toEqual(pluralFamilies(source));
    for (const [key, text] of Object.entries(target)) {
      expect(text.trim(), `${language}:${key}`).not.toBe("");
      expect(placeholders(text), `${language}:${key}`).toEqual(placeholders(source[isSingle(key) ? key : `${pluralBase(key)}_other`]!));
    }
  });

  it.each(LANGUAGES)("has every plural form of %s for each counted sentence, and no other", (language) => {
    const texts = load(language, file);
    const categories = [...new Intl.PluralRules(language).resolvedOptions().pluralCategories].sort();
    for (const family of pluralFamilies(texts)) {
      const forms = Object.keys(texts)
        .filter((key) => !isSingle(key) && pluralBase(key) === family)
        .map((key) => key.slice(family.length + 1))
        .sort();
      expect(forms, `${language}:${family}`).toEqual(categories);
      for (const form of forms) expect(placeholders(texts[`${family}_${form}`]!), `${language}:${family}_${form}`).toContain("count");
    }
  });

  it.each(LANGUAGES)("writes counts as plural forms, never as %s shortcuts like файл(ов) or file(s)", (language) => {
    for (const [key, text] of Object.entries(load(language, file))) expect(shortcuts(text), `${language}:${key}: ${text}`).toEqual([]);
  });
});

describe("the shortcut check", () => {
  it("notices bracketed endings and leaves ordinary brackets alone", () => {
    expect(shortcuts("{{count}} файл(ов) имеют недопустимый формат")).toEqual(["л(ов)"]);
    expect(shortcuts("Я согласен(на) и получил(а)")).toEqual(["н(на)", "л(а)"]);
    expect(shortcuts("{{count}} file(s) and Datei(en)")).toEqual(["e(s)", "i(en)"]);
    expect(shortcuts("Скидка (до 100 МБ), Art. 9(2)(h) GDPR, История ({{count}})")).toEqual([]);
  });
});

describe("locale folders", () => {
  it("exist for exactly the six languages with the same files", () => {
    expect(fs.readdirSync(LOCALES_DIR).sort()).toEqual([...LANGUAGES].sort());
    for (const language of LANGUAGES) expect(fs.readdirSync(path.join(LOCALES_DIR, language)).sort()).toEqual(namespaces.sort());
  });
});
