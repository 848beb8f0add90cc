import { describe, expect, it } from "vitest";
import { buildTexts, keysOfText, missingTexts, placeholdersOf, samePlaceholders, without } from "./texts";

const source = {
  pricing: { order: "Оформить заказ", title: "Цены" },
  cta: { order: "Оформить заказ", text: "Шаг {{step}} из {{total}}" },
  footer: { home: "На главную" },
};
const german = {
  pricing: { order: "Bestellung aufgeben", title: "Preise" },
  cta: { order: "Bestellen", text: "Schritt {{step}} von {{total}}" },
  footer: { home: "" },
};

describe("interface texts with staff overrides", () => {
  it("replaces every key whose Russian text has an override, and only those", () => {
    const texts = buildTexts({ source, target: german, overrides: new Map([["Оформить заказ", "Jetzt bestellen"]]), strict: false });
    expect(texts).toMatchObject({ pricing: { order: "Jetzt bestellen", title: "Preise" }, cta: { order: "Jetzt bestellen", text: "Schritt {{step}} von {{total}}" } });
  });

  it("falls back to the Russian text for a missing or empty text, unless strict", () => {
    expect(buildTexts({ source, target: german, overrides: new Map(), strict: false }).footer).toEqual({ home: "На главную" });
    // Strict (tests): the key stays missing, so the armed missing-key handler fails the page.
    expect(buildTexts({ source, target: german, overrides: new Map(), strict: true }).footer).toEqual({});
    expect(buildTexts({ source, target: { pricing: {} }, overrides: new Map([["Цены", "Prices"]]), strict: true }).pricing).toEqual({ title: "Prices" });
  });

  it("never changes the trees it is given", () => {
    const before = JSON.stringify(german);
    buildTexts({ source, target: german, overrides: new Map([["Цены", "Tarife"]]), strict: false });
    expect(JSON.stringify(german)).toBe(before);
  });

  it("lists the Russian texts machine translation may fill: missing, empty, not overridden, each once", () => {
    expect(missingTexts(source, german, new Map())).toEqual(["На главную"]);
    // Russian plural forms a language does not have are not missing; a family with no forms at all is.
    const plurals = { files_one: "{{count}} файл", files_few: "{{count}} файла", files_many: "{{count}} файлов", files_other: "{{count}} файла" };
    expect(missingTexts(plurals, { files_one: "{{count}} Datei", files_other: "{{count}} Dateien" }, new Map())).toEqual([]);
    expect(missingTexts(plurals, {}, new Map())).toEqual(["{{count}} файл", "{{count}} файла", "{{count}} файлов"]);
    expect(missingTexts(source, { pricing: { order: "x" } }, new Map([["Цены", "Prices"]]))).toEqual(["Оформить заказ", "Шаг {{step}} из {{total}}", "На главную"]);
  });

  it("finds where a Russian original is used", () => {
    expect(keysOfText(source, "Оформить заказ")).toEqual(["pricing.order", "cta.order"]);
    expect(keysOfText(source, "нет такого")).toEqual([]);
  });

  it("drops page-scoped top-level keys", () => {
    expect(Object.keys(without(source, ["pricing", "cta"]))).toEqual(["footer"]);
  });

  it("compares placeholders regardless of order and spacing", () => {
    expect(placeholdersOf("Шаг {{step}} из {{ total }}")).toEqual(["step", "total"]);
    expect(samePlaceholders("Шаг {{step}} из {{total}}", "{{total}}: step {{step}}")).toBe(true);
    expect(samePlaceholders("Шаг {{step}} из {{total}}", "Step {{step}}")).toBe(false);
    expect(samePlaceholders("Цены", "Prices {{x}}")).toBe(false);
  });
});
