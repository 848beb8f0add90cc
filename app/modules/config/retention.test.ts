import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { LANGUAGES } from "~/modules/i18n/languages";
import { DEFAULT_RETENTION, formatPeriod, periodPlaceholder, RETENTION_IDS, retentionFrom } from "./retention";

/** The privacy notices state every period of the one list the scheduled job enforces (ADR 074), and none written out by hand. */
type Tree = { [key: string]: string | Tree };
const legal = (language: string): Tree => JSON.parse(fs.readFileSync(path.resolve(`locales/${language}/legal.json`), "utf8")).legal;
const leaves = (tree: Tree): string => Object.values(tree).map((value) => (typeof value === "string" ? value : leaves(value))).join("\n");

describe("retention periods", () => {
  it.each(LANGUAGES)("both markets' privacy notices in %s name every period of the list", (language) => {
    const texts = legal(language);
    const notices = { domestic: leaves((texts.privacy as Tree).sections as Tree), international: leaves(((texts.international as Tree).privacy as Tree).sections as Tree) };
    for (const [market, text] of Object.entries(notices)) {
      for (const id of RETENTION_IDS) expect(text, `${market} ${language}: ${id}`).toContain(`{{${periodPlaceholder(id)}}}`);
    }
  });

  it("reads each period from its variable within bounds and names the ones out of them", () => {
    expect(retentionFrom({}).periods).toEqual(DEFAULT_RETENTION);
    expect(retentionFrom({ RETENTION_DRAFT_DAYS: "14", RETENTION_ORDER_YEARS: "6" }).periods).toMatchObject({ abandonedDraft: 14, orderPersonalData: 6 });
    expect(retentionFrom({ RETENTION_DRAFT_DAYS: "0", RETENTION_ORDER_YEARS: "ten" }).invalid).toEqual([
      "RETENTION_DRAFT_DAYS (whole days from 1 to 365)",
      "RETENTION_ORDER_YEARS (whole years from 1 to 30)",
    ]);
  });

  it("says a period in the reader's words", () => {
    expect(formatPeriod("abandonedDraft", DEFAULT_RETENTION, "en")).toBe("30 days");
    expect(formatPeriod("orderPersonalData", DEFAULT_RETENTION, "ru")).toBe("10 лет");
    expect(formatPeriod("signInLinks", DEFAULT_RETENTION, "de")).toBe("24 Stunden");
  });
});
