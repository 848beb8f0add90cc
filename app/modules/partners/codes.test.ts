import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { drawPartnerCode, isPartnerCodeShape, isReservedWord, PARTNER_CODE, RESERVED_ROUTE_WORDS } from "./codes";

const ROUTES_DIR = path.resolve(__dirname, "../../routes");

/**
 * `backoffice_.login.tsx` → `backoffice`; pathless and dynamic segments (`$`, `($lang)`) name nothing;
 * tests beside the routes are no routes (remix.config.js ignores them).
 */
function topLevelSegments(): string[] {
  return fs
    .readdirSync(ROUTES_DIR)
    .filter((file) => !/\.test\.tsx?$/.test(file))
    .map((file) => file.replace(/\.(tsx|ts)$/, "").split(".")[0]!.replace(/_$/, ""))
    .filter((segment) => segment && !segment.startsWith("$") && !segment.startsWith("(") && !segment.startsWith("_"));
}

/** Letters in a fixed sequence: "PACKER" first, then "REFDOC", then "ABCDEF". */
function scripted(words: string[]) {
  const letters = words.join("");
  let i = 0;
  return (n: number) => {
    expect(n).toBe(26);
    return letters.charCodeAt(i++) - 65;
  };
}

describe("partner codes", () => {
  it("reserve every top-level route segment of app/routes", () => {
    const segments = topLevelSegments();
    expect(segments).toEqual(expect.arrayContaining(["auth", "cabinet", "order", "backoffice"]));
    for (const segment of segments) expect(isReservedWord(segment), `route /${segment}`).toBe(true);
  });

  it("never draw a route word, whatever the case", () => {
    expect(drawPartnerCode(scripted(["PACKER", "REFDOC", "ABCDEF"]))).toBe("ABCDEF");
    expect(isReservedWord("packer")).toBe(true);
    expect(isReservedWord("Refdoc")).toBe(true);
    expect(isPartnerCodeShape("refdoc")).toBe(false);
    expect(isPartnerCodeShape("ortpro")).toBe(true);
    expect(isPartnerCodeShape("ORTPR1")).toBe(false);
  });

  it("draw six uppercase Latin letters", () => {
    const random = (n: number) => Math.floor(Math.random() * n);
    for (let i = 0; i < 200; i++) expect(drawPartnerCode(random)).toMatch(PARTNER_CODE);
    expect(RESERVED_ROUTE_WORDS.every((word) => word === word.toUpperCase())).toBe(true);
  });
});
