import { describe, expect, it } from "vitest";
import { dateTimeFormat, numberFormat } from "./intl";

describe("cached Intl formatters", () => {
  it("format exactly as a new formatter would, and reuse one per locale and options", () => {
    const options = { style: "currency", currency: "EUR", minimumFractionDigits: 2 } as const;
    expect(numberFormat("de-DE", options).format(1234.5)).toBe(new Intl.NumberFormat("de-DE", options).format(1234.5));
    expect(numberFormat("de-DE", { ...options })).toBe(numberFormat("de-DE", options));
    expect(numberFormat("fr-FR", options)).not.toBe(numberFormat("de-DE", options));
    const when = new Date("2026-11-22T05:30:00Z");
    const dateOptions = { dateStyle: "short", timeStyle: "short", timeZone: "UTC" } as const;
    expect(dateTimeFormat("ru-RU", dateOptions).format(when)).toBe(when.toLocaleString("ru-RU", dateOptions));
    expect(dateTimeFormat("ru-RU", { ...dateOptions, timeStyle: "medium" })).not.toBe(dateTimeFormat("ru-RU", dateOptions));
  });
});
