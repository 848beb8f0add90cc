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
  it("chooses the plural form of the language for a count, with _other as the fallback", () => {
    const files = { upload: { error_one: "{{count}} файл", error_few: "{{count}} файла", error_many: "{{count}} файлов", error_other: "{{count}} файла" } };
    const ru = createTranslator(files, () => {}, "ru");
    expect([1, 2, 5, 11, 21, 22, 25, 101].map((count) => ru("upload.error", { count }))).toEqual([
      "1 файл",
      "2 файла",
      "5 файлов",
      "11 файлов",
      "21 файл",
      "22 файла",
      "25 файлов",
      "101 файл",
    ]);
    const en = createTranslator({ upload: { error_one: "{{count}} file", error_other: "{{count}} files" } }, () => {}, "en");
    expect([1, 2, 0].map((count) => en("upload.error", { count }))).toEqual(["1 file", "2 files", "0 files"]);
    // A key without plural forms is used as it is, count or not.
    expect(createTranslator(messages, () => {}, "ru")("wizard.step", { step: 1, total: 11, count: 3 })).toBe("Шаг 1 из 11");
  });
});
