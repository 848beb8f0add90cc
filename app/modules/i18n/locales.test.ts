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

describe.each(namespaces)("locale namespace %s", (file) => {
  const source = load("ru", file);

  it("has texts", () => {
    expect(Object.keys(source).length).toBeGreaterThan(0);
  });

  it.each(LANGUAGES.filter((language) => language !== "ru"))("is complete in %s", (language) => {
    const target = load(language, file);
    expect(Object.keys(target).sort()).toEqual(Object.keys(source).sort());
    for (const [key, text] of Object.entries(target)) {
      expect(text.trim(), `${language}:${key}`).not.toBe("");
      expect(placeholders(text), `${language}:${key}`).toEqual(placeholders(source[key]!));
    }
  });
});

describe("locale folders", () => {
  it("exist for exactly the six languages with the same files", () => {
    expect(fs.readdirSync(LOCALES_DIR).sort()).toEqual([...LANGUAGES].sort());
    for (const language of LANGUAGES) expect(fs.readdirSync(path.join(LOCALES_DIR, language)).sort()).toEqual(namespaces.sort());
  });
});
