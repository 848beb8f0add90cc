import { describe, expect, it } from "vitest";
import { chooseLanguage, isLanguage, languageFromPath, pathAfterLanguageChange } from "./languages";

describe("language rule", () => {
  it("accepts only the six codes as a URL language", () => {
    for (const code of ["ru", "en", "de", "es", "fr", "it"]) expect(languageFromPath(`/${code}`)).toBe(code);
    for (const path of ["/", "/EN", "/pl", "/english", "/ABCDEF", "/order"]) expect(languageFromPath(path)).toBeNull();
  });
  it("prefers the URL, then the saved choice, then the market default", () => {
    expect(chooseLanguage({ pathname: "/de", saved: "fr", marketDefault: "ru" })).toBe("de");
    expect(chooseLanguage({ pathname: "/order", saved: "fr", marketDefault: "ru" })).toBe("fr");
    expect(chooseLanguage({ pathname: "/order", saved: "xx", marketDefault: "en" })).toBe("en");
    expect(chooseLanguage({ pathname: "/", saved: null, marketDefault: "ru" })).toBe("ru");
  });
  it("sends home pages to /{lang} and keeps other pages", () => {
    expect(pathAfterLanguageChange("/", "en")).toBe("/en");
    expect(pathAfterLanguageChange("/de", "it")).toBe("/it");
    expect(pathAfterLanguageChange("/order", "en")).toBe("/order");
    expect(pathAfterLanguageChange("/en/order", "ru")).toBe("/order");
  });
  it("guards unknown values", () => {
    expect(isLanguage("ru")).toBe(true);
    expect(isLanguage("RU")).toBe(false);
    expect(isLanguage(undefined)).toBe(false);
  });
});
