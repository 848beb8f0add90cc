import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { STAFF_TEXT_AREAS } from "./text-areas";

/**
 * The words a clinician reads, checked against the glossary (`docs/i18n-glossary.md`, ADR 043).
 *
 * The legal texts (`legal.json`) are written and checked with the legal pages, and the site-wide
 * banner (`banner.*`) with the cookie and guarantee work: both are left out here.
 */

type Tree = { [key: string]: string | Tree };
const LOCALES_DIR = path.resolve(__dirname, "../../../locales");

function flatten(tree: Tree, prefix = ""): [string, string][] {
  return Object.entries(tree).flatMap(([key, value]) => {
    const name = prefix ? `${prefix}.${key}` : key;
    return typeof value === "string" ? [[name, value] as [string, string]] : flatten(value, name);
  });
}

/** Every text of a language outside the legal texts and the banner: `[file:key, text]`. */
function texts(language: string): [string, string][] {
  return fs
    .readdirSync(path.join(LOCALES_DIR, language))
    .filter((file) => file.endsWith(".json") && file !== "legal.json")
    .flatMap((file) =>
      flatten(JSON.parse(fs.readFileSync(path.join(LOCALES_DIR, language, file), "utf8")))
        .filter(([key]) => !key.startsWith("banner."))
        .map(([key, text]) => [`${file}:${key}`, text] as [string, string]),
    );
}

const FOREIGN = ["en", "de", "es", "fr", "it"] as const;

/** The texts of a language whose wording matches. */
const matching = (language: string, pattern: RegExp) => texts(language).filter(([, text]) => pattern.test(text)).map(([key, text]) => `${key}: ${text}`);

/** Areas only staff read (back-office, file server, translations, packer): the key's first part. */
const isStaffKey = (key: string) => (STAFF_TEXT_AREAS as readonly string[]).includes(key.split(":")[1]!.split(".")[0]!);

describe("wording a clinician reads", () => {
  it.each(FOREIGN)("names the terms of sale naturally, never a 'public offer' (%s)", (language) => {
    expect(matching(language, /public offer|öffentliche[sn]? Angebot|offre publique|oferta pública|offerta pubblica/i)).toEqual([]);
  });

  it.each(FOREIGN)("calls the 4-bar machine a pressure former, in bar (%s)", (language) => {
    expect(matching(language, /atmospher|atmosphär|atmósfer|atmosphèr|atmosfer|vacuum former|sous vide|al vacío|sottovuoto|Tiefziehgerät/i)).toEqual([]);
  });

  it.each(FOREIGN)("never shows a clinic the FTP transfer; staff pages may name it (%s)", (language) => {
    const clinicTexts = texts(language).filter(([key]) => !isStaffKey(key));
    expect(clinicTexts.filter(([, text]) => /\bFTP\b/.test(text)).map(([key]) => key)).toEqual([]);
  });

  it("uses the glossary's word for the partner's reward (es comisión, fr commission, it provvigione)", () => {
    expect(matching("es", /recompensa|remuneración/i)).toEqual([]);
    expect(matching("fr", /rémunération|récompense/i)).toEqual([]);
    expect(matching("it", /compenso|ricompensa/i)).toEqual([]);
  });

  it("names matrices and retainers with the glossary's words in the back-office file types", () => {
    const fileTypes = (language: string) => JSON.parse(fs.readFileSync(path.join(LOCALES_DIR, language, "files-screen.json"), "utf8")).bo.files.fileTypes;
    expect(fileTypes("de")).toEqual({ matrix: "Matrize", aligners: "Aligner", retainer: "Retainer" });
    expect(fileTypes("fr")).toEqual({ matrix: "Matrice", aligners: "Aligneurs", retainer: "Gouttière de contention" });
    expect(fileTypes("it")).toEqual({ matrix: "Matrice", aligners: "Allineatori", retainer: "Retainer" });
    expect(fileTypes("es")).toEqual({ matrix: "Matriz", aligners: "Alineadores", retainer: "Retenedor" });
    expect(matching("de", /\bMatrix/)).toEqual([]);
    expect(matching("it", /contenitor|contenzion/i)).toEqual([]);
    expect(matching("fr", /(^|[^e] )\bcontention\b/i).filter((text) => !/gouttières? de contention/i.test(text))).toEqual([]);
  });

  it("writes a space before % in German and Spanish, a no-break space in French", () => {
    for (const language of ["de", "es"]) expect(matching(language, /(\d|\}\})%/)).toEqual([]);
    expect(matching("fr", /(\d|\}\}) ?%/)).toEqual([]);
  });

  it("speaks to an Italian clinic formally (Lei), never with the plural 'voi' imperative", () => {
    expect(matching("it", /\b(caricate|scegliete|selezionate|inserite|controllate|riprovate|attendete|contattate|scaricate|verificate|compilate)\s+(il|lo|la|i|gli|le|l'|un|una|di nuovo|più tardi)\b/i)).toEqual([]);
  });
});

/**
 * One ё rule in Russian: our own texts write ё (ещё, платёж, партнёр, удалён, обновлён); the spec's
 * verbatim texts stay as the spec writes them, mostly with е. These keys hold the spec's texts.
 */
const SPEC_VERBATIM_WITH_E = new Set([
  "failures.json:failures.partnerCode",
  "failures.json:failures.cabinetPayment.createFailed",
  "translations.json:translations.toasts.updated",
  "translations.json:translations.toasts.deleted",
  "partners.json:partners.toasts.percentageSaved",
  "partners.json:partners.errors.partnerNotFound",
  "payments.json:payments.success.updateFailed",
  "payments.json:payments.errors.tryAgain",
  "backoffice.json:bo.orders.delete.failed",
  "common.json:gate.wrongPasswordBackoffice",
  "common.json:gate.checkFailed",
  "common.json:wizard.files.removed",
  "common.json:wizard.toasts.addPatient",
]);

/** Words whose ё the Russian texts write, in the е spelling that would break the rule. */
const WITHOUT_YO = /(^|[^\p{L}])(еще|платеж|Платеж|партнер\p{L}*|Партнер\p{L}*|удален|обновлен|сохранен|отменен|подтвержден|поврежден|введенн\p{L}*|ждет)(?=[^\p{L}]|$)/u;

describe("Russian ё", () => {
  it("is written in every text that is not the spec's verbatim one", () => {
    const offending = texts("ru")
      .filter(([key, text]) => WITHOUT_YO.test(text) && !SPEC_VERBATIM_WITH_E.has(key))
      .map(([key, text]) => `${key}: ${text}`);
    expect(offending).toEqual([]);
  });

  it("lists only keys that exist and still hold the spec's е", () => {
    const all = new Map(texts("ru"));
    for (const key of SPEC_VERBATIM_WITH_E) expect(WITHOUT_YO.test(all.get(key) ?? ""), key).toBe(true);
  });
});
