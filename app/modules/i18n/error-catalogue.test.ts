import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The error catalogues of both specifications (§8): each Russian text is either an interface text
 * the code uses (its key appears in app/) or named in ADR 026 as a message this design cannot show.
 * The texts are read from the specifications' §8 as kept in docs/spec-excerpts (SPEC_DIR may point
 * at the full specifications instead), so a text added there is checked too.
 */

const ROOT = path.resolve(__dirname, "../../..");
const SPECS = [process.env.SPEC_DIR ?? path.resolve(ROOT, "docs/spec-excerpts")].flatMap((dir) => ["customer-side.md", "staff-partner-packer.md"].map((name) => path.join(dir, name)));
const ADR = fs.readFileSync(path.join(ROOT, "docs/decisions/026-failures-where-they-happen.md"), "utf8");

type Tree = { [key: string]: string | Tree };
const flatten = (tree: Tree, prefix = "", into: Record<string, string> = {}) => {
  for (const [key, value] of Object.entries(tree)) {
    const name = prefix ? `${prefix}.${key}` : key;
    if (typeof value === "string") into[name] = value;
    else flatten(value, name, into);
  }
  return into;
};
const ru = fs.readdirSync(path.join(ROOT, "locales/ru")).reduce<Record<string, string>>((all, file) => flatten(JSON.parse(fs.readFileSync(path.join(ROOT, "locales/ru", file), "utf8")), "", all), {});
const keysInCode = new Set(
  execFileSync("grep", ["-rhoE", `"[a-zA-Z]+(\\.[a-zA-Z0-9]+)+"`, path.join(ROOT, "app"), "--include=*.ts", "--include=*.tsx"], { encoding: "utf8" })
    .split("\n")
    .map((line) => line.slice(1, -1)),
);

/** A text with its variable parts (N, X/Y, {message}, "plus the cause" endings, {{name}}) made comparable. */
const shape = (text: string) =>
  text
    .replace(/\{\{\s*\w+\s*\}\}|\{\w+\}|\bN\b|\bX\/Y\b/g, "*")
    .replace(/\*\/\*/g, "*")
    .replace(/[\s*:.…]+$/g, "")
    .replace(/\s+/g, " ")
    .trim();

function catalogueTexts(file: string): string[] {
  const text = fs.readFileSync(file, "utf8");
  const section = text.slice(text.indexOf("## 8. Error catalogue"), text.indexOf("## 9."));
  return [...new Set([...section.matchAll(/["']([^"'\n]*[А-Яа-яЁё][^"'\n]*)["']/g)].map((match) => match[1]!))];
}

/** The spec writes some messages in pieces ("… " plus the file name plus ". Ошибка: " plus the cause). */
const isFragment = (text: string) => /^[.\s]|[:\s]$/.test(text) || /^[а-яё]/.test(text);

function usedKeyFor(text: string): string | undefined {
  const wanted = shape(text);
  return Object.entries(ru).find(
    ([key, value]) => keysInCode.has(key) && (shape(value) === wanted || shape(value).replace(/\*/g, "") === wanted.replace(/\*/g, "") || (isFragment(text) && value.includes(text.trim()))),
  )?.[0];
}

describe.each(SPECS)("the error catalogue of %s", (file) => {
  const texts = catalogueTexts(file);

  it("is read from the specification", () => {
    expect(texts.length).toBeGreaterThan(40);
  });

  it.each(texts)("%s — used by the code or named in ADR 026", (text) => {
    const key = usedKeyFor(text);
    if (key) return;
    expect(ADR.includes(`"${text}"`), `"${text}" has no used key and is not named in ADR 026`).toBe(true);
  });
});
