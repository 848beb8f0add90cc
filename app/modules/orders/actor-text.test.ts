import { describe, expect, it } from "vitest";
import { LANGUAGES, type Language } from "~/modules/i18n/languages";
import { resources } from "~/modules/i18n/resources.server";
import { createTranslator } from "~/modules/i18n/translate";
import { actorText } from "./actor-text";

/** The locale files' texts of a language; a missing key fails the test. */
const texts = (language: Language) =>
  createTranslator(resources[language].common, (key) => {
    throw new Error(`Missing translation: ${key} (${language})`);
  }, language);

describe("the history's actors in the reader's language", () => {
  const ru = texts("ru");

  it("says the shared password, the packer, a guest and a browser without sign-in in Russian, with their addresses", () => {
    expect(actorText(ru, "back-office password (::1)")).toBe("общий пароль панели (::1)");
    expect(actorText(ru, "packer (10.0.0.7)")).toBe("упаковщик (10.0.0.7)");
    expect(actorText(ru, "guest (85.140.1.2)")).toBe("гость (85.140.1.2)");
    expect(actorText(ru, "anonymous browser")).toBe("клиент без входа");
  });

  it("names payment providers and keeps the payment's id; an invoice's transfer names who recorded it", () => {
    expect(actorText(ru, "sandbox sbx_4f2a9c")).toBe("тестовая касса, платёж sbx_4f2a9c");
    expect(actorText(ru, "sandbox")).toBe("тестовая касса");
    expect(actorText(ru, "yookassa 2d8e1f-000f")).toBe("ЮKassa, платёж 2d8e1f-000f");
    expect(actorText(ru, "invoice №17 (admin@aligner.test)")).toBe("оплата по счёту №17 (отметил: admin@aligner.test)");
  });

  it("shows an e-mail and any label it does not know as recorded", () => {
    expect(actorText(ru, "manager@aligner.test")).toBe("manager@aligner.test");
    expect(actorText(ru, "sandboxes are fun")).toBe("sandboxes are fun");
  });

  it("has every actor's text in all six languages, each language its own words", () => {
    const labels = ["back-office password (::1)", "packer (::1)", "guest (::1)", "anonymous browser", "sandbox sbx_1", "invoice №1 (back-office password (::1))"];
    const english = labels.map((label) => actorText(texts("en"), label));
    for (const language of LANGUAGES) {
      const said = labels.map((label) => actorText(texts(language), label));
      expect(new Set(said).size).toBe(said.length);
      if (language !== "en") said.forEach((text, i) => expect(text, `${language}: ${labels[i]}`).not.toBe(english[i]));
    }
  });
});
