import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { LANGUAGES } from "./languages";
import { shellTexts } from "./shell-texts.server";
import { lookup } from "./translate";

/**
 * A document whose root loader failed renders with the texts it carries itself (ADR 046): every text
 * the error page, the shell around it and the "no connection" notice ask for is among them, in every
 * language — read from the components, so a text added there and not carried fails here.
 */
const SOURCES = ["app/components/error-boundary.tsx", "app/components/connection-notice.tsx", "app/root.tsx"];
const STATUS_KEYS = ["forbidden", "badRequest", "tooMany", "tooLarge", "conflict", "unavailable", "unexpected"];

function keysUsed(): string[] {
  const keys = new Set<string>();
  for (const file of SOURCES) {
    if (!fs.existsSync(file)) continue;
    for (const [, key] of fs.readFileSync(path.resolve(file), "utf8").matchAll(/\bt\("((?:shell|errors|connection)\.[\w.]+)"/g)) keys.add(key);
  }
  // The error page builds the status' keys: errors.{status}.title and .text.
  for (const status of STATUS_KEYS) keys.add(`errors.${status}.title`).add(`errors.${status}.text`);
  return [...keys];
}

describe("the texts a document carries when its root data is missing", () => {
  const keys = keysUsed();

  it("are read from the components", () => {
    expect(keys).toEqual(expect.arrayContaining(["shell.skipToContent", "errors.home", "errors.notFound.title", "errors.reference"]));
  });

  for (const language of LANGUAGES) {
    it(`hold every text of the error page and the shell in ${language}`, () => {
      const texts = shellTexts(language);
      for (const key of keys) expect(lookup(texts, key), `${language}: ${key}`).toMatch(/\S/);
      // Only those parts: the rest comes by key (ADR 022, 034).
      expect(Object.keys(texts).sort()).toEqual(["connection", "errors", "shell"]);
    });
  }

  it("fall back to Russian for an unknown language", () => {
    expect(lookup(shellTexts("xx"), "errors.home")).toBe("Вернуться на главную");
  });
});
