import { describe, expect, it } from "vitest";
import { longDate } from "./dates";

const first = new Date("2026-12-01T00:00:00Z");
const second = new Date("2026-12-02T00:00:00Z");
const spaces = (text: string) => text.replace(/\s/g, " ");

describe("dates written out", () => {
  it("write the first of a month as French and Italian do: 1er, 1°", () => {
    expect(spaces(longDate(first, "fr"))).toBe("1er décembre 2026");
    expect(spaces(longDate(first, "it"))).toBe("1° dicembre 2026");
  });
  it("keep the other days and languages as Intl writes them", () => {
    expect(spaces(longDate(second, "fr"))).toBe("2 décembre 2026");
    expect(spaces(longDate(second, "it"))).toBe("2 dicembre 2026");
    expect(spaces(longDate(first, "de"))).toBe("1. Dezember 2026");
    expect(spaces(longDate(first, "es"))).toBe("1 de diciembre de 2026");
    expect(spaces(longDate(first, "en"))).toBe("1 December 2026");
    expect(spaces(longDate(first, "ru"))).toBe("1 декабря 2026 г.");
  });
});
