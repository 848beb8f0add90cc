import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The decision records stay true: an ADR cites its figures from bench/RESULTS.md by a
 * section's heading, and a citation names a heading that exists; every record opens with its
 * number and title in one style.
 */
const DECISIONS = path.resolve("docs/decisions");
const RESULTS = fs.readFileSync(path.resolve("bench/RESULTS.md"), "utf8");
const oneLine = (text: string) => text.replace(/\s+/g, " ").trim();
const headings = new Set(RESULTS.split("\n").filter((line) => line.startsWith("## ")).map((line) => oneLine(line.slice(3))));
const records = fs
  .readdirSync(DECISIONS)
  .filter((name) => /^\d{3}-.+\.md$/.test(name))
  .map((name) => ({ name, text: fs.readFileSync(path.join(DECISIONS, name), "utf8") }));

describe("the decision records", () => {
  it("cite bench/RESULTS.md by headings that exist", () => {
    const citations = records.flatMap(({ name, text }) => [...text.matchAll(/RESULTS\.md,\s*“([^”]+)”/g)].map((match) => ({ name, heading: oneLine(match[1]!) })));
    expect(citations.length).toBeGreaterThan(20);
    expect(citations.filter(({ heading }) => !headings.has(heading))).toEqual([]);
  });

  it("open with '# NNN. Title', the number of their file", () => {
    const wrong = records.filter(({ name, text }) => !text.startsWith(`# ${name.slice(0, 3)}. `)).map(({ name, text }) => `${name}: ${text.split("\n")[0]}`);
    expect(wrong).toEqual([]);
  });
});
