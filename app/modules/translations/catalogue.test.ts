import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { buildCatalogue, type CatalogueQuery, catalogueUrl, keyPlaces, matches, missingCounts, PLACES, shownText } from "./catalogue";

const LOCALES = path.resolve(__dirname, "../../../locales/ru");
const topKeys = fs.readdirSync(LOCALES).flatMap((file) => Object.keys(JSON.parse(fs.readFileSync(path.join(LOCALES, file), "utf8"))));

describe("the text catalogue", () => {
  it("places every area of the locale files somewhere (a new area is placed when it is added)", () => {
    for (const key of topKeys) expect(keyPlaces(`${key}.anything`), key).not.toEqual([]);
    expect(keyPlaces("bo.roles.title")).toEqual(["/backoffice/roles"]);
    expect(keyPlaces("bo.dialog.close")).toEqual(["staff"]);
    expect(keyPlaces("partners.backoffice.title")).toEqual(["/backoffice/affiliates"]);
    expect(keyPlaces("wizard.title")).toEqual(["/order"]);
    expect(PLACES.every(([prefix]) => !prefix.endsWith("."))).toBe(true);
  });

  const source = { a: { hello: "Привет", bye: "Пока", files_one: "{{count}} файл", files_few: "{{count}} файла", files_other: "{{count}} файлов", empty: "" } };
  const targets = {
    en: { a: { hello: "Hello", files_one: "{{count}} file", files_other: "{{count}} files" } },
    de: { a: { hello: "Hallo", bye: "Tschüss", files_one: "{{count}} Datei", files_other: "{{count}} Dateien" } },
    es: { a: {} },
    fr: { a: { hello: " " } },
    it: { a: { hello: "Ciao" } },
  };
  const overrides = new Map([["en", new Map([["Пока", "Bye now"]])], ["it", new Map([["Привет", "Salve"]])]]);
  const rows = buildCatalogue(source, targets, overrides);
  const row = (key: string) => rows.find((entry) => entry.key === key)!;

  it("lists every key of the base locale with each language's state", () => {
    expect(rows.map((entry) => entry.key)).toEqual(["a.hello", "a.bye", "a.files_one", "a.files_few", "a.files_other", "a.empty"]);
    expect(row("a.hello").cells).toMatchObject({ en: { state: "file", text: "Hello" }, es: { state: "missing" }, fr: { state: "missing" }, it: { state: "override", text: "Salve", fileText: "Ciao" } });
    expect(row("a.bye").cells.en).toEqual({ state: "override", text: "Bye now" });
    expect(row("a.bye").cells.es).toEqual({ state: "missing" });
    // A Russian plural form the language has no use for is not missing there.
    expect(row("a.files_few").cells.en).toEqual({ state: "notNeeded" });
    expect(row("a.files_few").cells.es).toEqual({ state: "missing" });
    expect(row("a.empty").cells.en).toEqual({ state: "notNeeded" });
    expect(missingCounts(rows)).toEqual({ en: 0, de: 0, es: 5, fr: 5, it: 4 });
  });

  it("finds by key or by a text in any language, and filters the missing and the overridden", () => {
    const query: CatalogueQuery = { q: "", missing: null, overridden: false, page: 1 };
    const keys = (q: Partial<CatalogueQuery>) => rows.filter((entry) => matches(entry, { ...query, ...q })).map((entry) => entry.key);
    expect(keys({ q: "A.BYE" })).toEqual(["a.bye"]);
    expect(keys({ q: "tschüss" })).toEqual(["a.bye"]);
    expect(keys({ q: "bye now" })).toEqual(["a.bye"]);
    expect(keys({ q: "ciao" })).toEqual(["a.hello"]);
    expect(keys({ missing: "it" })).toEqual(["a.bye", "a.files_one", "a.files_few", "a.files_other"]);
    expect(keys({ overridden: true })).toEqual(["a.hello", "a.bye"]);
  });

  it("cuts long texts for the list and keeps the filters in its links", () => {
    expect(shownText("слово ".repeat(100)).length).toBeLessThanOrEqual(241);
    expect(shownText("коротко")).toBe("коротко");
    expect(catalogueUrl({ q: "заказ", missing: "de", overridden: false, page: 2 })).toBe("/backoffice/translate/catalogue?q=%D0%B7%D0%B0%D0%BA%D0%B0%D0%B7&missing=de&page=2");
    expect(catalogueUrl({})).toBe("/backoffice/translate/catalogue");
  });
});
