import { describe, expect, it } from "vitest";
import { clinicMessageSchema, labThreadSchema, MESSAGE_MAX, textParts } from "./thread";

describe("a message's text", () => {
  it("makes web addresses links and leaves the rest as typed", () => {
    expect(textParts("Посмотрите https://example.com/scan?id=1, пожалуйста.")).toEqual([
      { text: "Посмотрите " },
      { text: "https://example.com/scan?id=1", href: "https://example.com/scan?id=1" },
      { text: ", пожалуйста." },
    ]);
  });

  it("links nothing but http and https", () => {
    expect(textParts("javascript:alert(1) <b>жирный</b> ftp://x")).toEqual([{ text: "javascript:alert(1) <b>жирный</b> ftp://x" }]);
  });

  it("keeps a text without addresses whole", () => {
    expect(textParts("Верхняя челюсть?")).toEqual([{ text: "Верхняя челюсть?" }]);
    expect(textParts("")).toEqual([]);
  });
});

describe("the thread's forms", () => {
  it("refuses an empty, an over-long or a control-character message", () => {
    const errors = (body: string) => {
      const result = clinicMessageSchema.safeParse({ intent: "message", body });
      return result.success ? [] : result.error.issues.map((issue) => issue.message);
    };
    expect(errors("   ")).toEqual(["thread.errors.required"]);
    expect(errors("а".repeat(MESSAGE_MAX + 1))).toEqual(["thread.errors.tooLong"]);
    expect(errors("a\u0000b")).toEqual(["errors.fields.badCharacters"]);
    expect(errors("<script>alert(1)</script>")).toEqual([]);
  });

  it("takes a message id only as digits", () => {
    expect(labThreadSchema.safeParse({ intent: "resolve", message: "12" }).success).toBe(true);
    expect(labThreadSchema.safeParse({ intent: "resolve", message: "1 or 1=1" }).success).toBe(false);
    expect(labThreadSchema.safeParse({ intent: "resolve", message: "0" }).success).toBe(false);
  });
});
