import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { LANGUAGES } from "~/modules/i18n/languages";
import { COOKIE_LIST, lifetimeOf, LOCAL_STORAGE_PREFIX } from "./cookie-list";

/**
 * The international privacy notice names every cookie the app can set, with its lifetime, and the
 * browser storage it uses (issue 37, ADR 044). The cookies are those of `COOKIE_LIST`, the only
 * place a cookie is defined: a cookie created anywhere else fails the second test.
 */

const APP_DIR = path.resolve(__dirname, "../../..");
type Tree = { [key: string]: string | Tree };

function cookieItems(language: string): string[] {
  const legal = JSON.parse(fs.readFileSync(path.resolve(APP_DIR, `../locales/${language}/legal.json`), "utf8")).legal as Tree;
  const section = (((legal.international as Tree).privacy as Tree).sections as Tree).cookies as Tree;
  return Object.entries(section)
    .filter(([key]) => key.startsWith("li"))
    .map(([, text]) => text as string);
}

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(file);
    return /\.(ts|tsx)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [file] : [];
  });
}

describe("the cookies the notice lists", () => {
  it.each(LANGUAGES)("names every cookie with its lifetime, and the upload storage, in %s", (language) => {
    const items = cookieItems(language);
    for (const definition of Object.values(COOKIE_LIST)) {
      const item = items.find((text) => new RegExp(`(^|[\\s«„“])${definition.name}\\b`).test(text));
      expect(item, `${language}: ${definition.name} is not in the notice`).toBeDefined();
      const { count } = lifetimeOf(definition);
      expect(item, `${language}: ${definition.name} without its lifetime ${count}`).toMatch(new RegExp(`\\b${count}\\b`));
    }
    expect(
      items.some((text) => text.includes("localStorage") && text.includes(LOCAL_STORAGE_PREFIX)),
      `${language}: the upload storage`,
    ).toBe(true);
  });

  it("are every cookie the app can set: none is created outside the list", () => {
    const creators = sourceFiles(APP_DIR).filter((file) => /\bcreateCookie(SessionStorage)?\s*\(/.test(fs.readFileSync(file, "utf8")));
    expect(creators.map((file) => path.relative(APP_DIR, file))).toEqual([path.join("modules", "http", "request", "cookies.server.ts")]);
    // Session storage keeps its id in the listed session cookie (auth/session.server.ts).
    expect(fs.readFileSync(path.join(APP_DIR, "modules/auth/session.server.ts"), "utf8")).toMatch(/cookie:\s*cookies\.session\(\)/);
  });

  it("mark only the partner cookie as needing consent: the notice calls every other one strictly necessary", () => {
    const needingConsent = Object.values(COOKIE_LIST)
      .filter((definition) => "needsConsent" in definition && definition.needsConsent)
      .map((definition) => definition.name);
    expect(needingConsent).toEqual(["partner"]);
  });

  it("states lifetimes in days, or seconds below a day", () => {
    expect(lifetimeOf(COOKIE_LIST.partnerCode)).toEqual({ unit: "days", count: 30 });
    expect(lifetimeOf(COOKIE_LIST.toast)).toEqual({ unit: "seconds", count: 60 });
    expect(lifetimeOf(COOKIE_LIST.language)).toEqual({ unit: "days", count: 365 });
  });
});
