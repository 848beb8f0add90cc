import { describe, expect, it } from "vitest";
import { createTranslator, interpolate, lookup } from "./translate";

const messages = { wizard: { step: "Шаг {{step}} из {{total}}", title: "Заказ" } };

describe("page translator", () => {
  it("finds nested keys and fills placeholders", () => {
    const t = createTranslator(messages);
    expect(t("wizard.title")).toBe("Заказ");
    expect(t("wizard.step", { step: 3, total: 11 })).toBe("Шаг 3 из 11");
  });
  it("reports a missing key and shows the key", () => {
    const missing: string[] = [];
    const t = createTranslator(messages, (key) => missing.push(key));
    expect(t("wizard.nope")).toBe("wizard.nope");
    expect(t("wizard")).toBe("wizard");
    expect(missing).toEqual(["wizard.nope", "wizard"]);
  });
  it("leaves unknown placeholders as they are", () => {
    expect(interpolate("{{a}} {{b}}", { a: 1 })).toBe("1 {{b}}");
    expect(lookup(messages, "wizard.step.deeper")).toBeUndefined();
  });
});
