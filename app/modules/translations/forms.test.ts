import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import { checkInBrowser } from "~/modules/validation/browser";
import { translatePageSchema } from "./forms";

const ID = "00000000-0000-4000-8000-000000000000";

function both(values: Record<string, string>) {
  const data = new FormData();
  for (const [name, value] of Object.entries(values)) data.append(name, value);
  return { server: parseWithZod(data, { schema: translatePageSchema }), browser: checkInBrowser(data, translatePageSchema) };
}

describe("the translations page's forms", () => {
  it.each([
    ["nothing typed", { intent: "add", originalText: "", translatedText: "  ", targetLanguage: "de" }, { originalText: ["translations.errors.required"], translatedText: ["translations.errors.required"] }],
    ["a lost placeholder", { intent: "update", id: ID, originalText: "Заказ от {{amount}}", translatedText: "Order", targetLanguage: "en" }, { translatedText: ["translations.errors.placeholders"] }],
    ["an unknown language", { intent: "add", originalText: "Привет", translatedText: "Hi", targetLanguage: "klingon" }, { targetLanguage: ["translations.errors.language"] }],
    ["a text too long", { intent: "add", originalText: "я".repeat(5001), translatedText: "x", targetLanguage: "en" }, { originalText: ["translations.errors.tooLong"] }],
  ])("says in the browser what the server says: %s", (_name, values, errors) => {
    const { server, browser } = both(values);
    const errorsOf = (submission: typeof server | typeof browser) => (submission.status === "success" ? null : submission.error);
    expect(errorsOf(server)).toEqual(errors);
    expect(errorsOf(browser)).toEqual(errorsOf(server));
  });

  it("accepts a translation that keeps the placeholders, in the browser as on the server", () => {
    const { server, browser } = both({ intent: "add", originalText: " Заказ от {{amount}} ", translatedText: "Orders from {{amount}}", targetLanguage: "de" });
    expect(server.status).toBe("success");
    expect(browser.status).toBe("success");
    expect(browser.status === "success" && browser.value).toEqual(server.status === "success" && server.value);
  });
});
