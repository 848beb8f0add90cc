import { describe, expect, it } from "vitest";
import { editionDate } from "./edition-date";

describe("the legal texts' edition date", () => {
  it("writes the first of a month as French and Italian do: 1er, 1°", () => {
    expect(editionDate("2026-12-01", "fr")).toBe("1er décembre 2026");
    expect(editionDate("2026-12-01", "it")).toBe("1° dicembre 2026");
  });

  it("leaves other days and other languages as Intl writes them", () => {
    expect(editionDate("2026-12-02", "fr")).toBe("2 décembre 2026");
    expect(editionDate("2026-12-11", "it")).toBe("11 dicembre 2026");
    expect(editionDate("2026-12-01", "de")).toBe("1. Dezember 2026");
    expect(editionDate("2026-12-01", "en")).toBe("December 1, 2026");
    expect(editionDate("2026-12-01", "es")).toBe("1 de diciembre de 2026");
  });
});
