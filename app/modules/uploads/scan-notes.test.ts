import { describe, expect, it } from "vitest";
import { LANGUAGES } from "~/modules/i18n/languages";
import { resources } from "~/modules/i18n/resources.server";
import { createTranslator, type TranslateValues } from "~/modules/i18n/translate";
import type { ScanSummary, ScanWarning } from "~/modules/orders/recorded-scan";
import { staffScanNotes } from "~/modules/backoffice/scan-facts";
import { doctorScanNotes, type ScanNote } from "./scan-notes";

const ALL_WARNINGS: ScanWarning[] = ["too_small", "too_large", "degenerate", "open_mesh", "bad_coordinates", "extra_bytes"];

/** A binary file of 2400 triangles with 37 bytes past the header's count, and every other finding. */
const scan: ScanSummary = {
  format: "binary",
  triangles: 2400,
  size: { x: 12.5, y: 9, z: 4.2 },
  degenerate: 3,
  boundaryEdges: 17,
  badTriangles: 5,
  extraBytes: 37,
  warnings: ALL_WARNINGS,
};

function translator(language: (typeof LANGUAGES)[number]) {
  const missing: string[] = [];
  const t = createTranslator(resources[language].common, (key) => missing.push(key), language);
  return { t, missing };
}

const render = (t: ReturnType<typeof translator>["t"], note: ScanNote) => t(note.key, note.values as TranslateValues);

describe("a file's scan notes, as a doctor reads them", () => {
  it("says each finding once, in the finding's order, with no reader counts to fill in", () => {
    const notes = doctorScanNotes(scan);
    expect(notes.map((note) => note.key)).toEqual(ALL_WARNINGS.map((warning) => `uploads.scan.notes.${warning}`));
    for (const note of notes) expect(note.values).toEqual({});
  });

  it("says nothing about a clean model", () => {
    expect(doctorScanNotes({ ...scan, warnings: [] })).toEqual([]);
  });

  it("tells the doctor in plain words that a file with extra data at its end was read and kept, and asks nothing", () => {
    const { t } = translator("ru");
    const [note] = doctorScanNotes({ ...scan, warnings: ["extra_bytes"] });
    expect(render(t, note!)).toBe("Файл прочитан, в конце лишние данные — он сохранён как есть. Ничего делать не нужно.");
    expect(render(translator("en").t, note!)).toBe("The file was read; it has extra data at the end and is kept as it is. Nothing to do.");
  });

  it.each(LANGUAGES)("has a note for every finding in %s, without numbers, placeholders or the reader's words", (language) => {
    const { t, missing } = translator(language);
    for (const note of doctorScanNotes(scan)) {
      const text = render(t, note);
      expect(text, note.key).not.toBe(note.key);
      expect(text, note.key).not.toMatch(/\{\{|\b(?!20\b|200\b)\d+\b/);
      expect(text, note.key).not.toMatch(/triang|треугольн|Dreieck|byte|байт|octet|header|заголов|Kopf|cabecera|en-tête|intestazione/i);
    }
    expect(missing).toEqual([]);
  });

  it.each(LANGUAGES)("asks the doctor to act only where the file must change (units, unreadable parts) in %s", (language) => {
    const { t } = translator(language);
    const texts = Object.fromEntries(doctorScanNotes(scan).map((note, index) => [ALL_WARNINGS[index], render(t, note)]));
    const againWord = { ru: /заново/, en: /again/, de: /erneut/, es: /de nuevo|vuelva a subir/, fr: /de nouveau/, it: /di nuovo/ }[language];
    for (const warning of ["too_small", "too_large", "bad_coordinates"] as const) expect(texts[warning], warning).toMatch(againWord);
    for (const warning of ["degenerate", "open_mesh", "extra_bytes"] as const) expect(texts[warning], warning).not.toMatch(againWord);
  });
});

describe("a file's scan notes, as staff read them", () => {
  it("keeps the reader's facts: format, triangles and size", () => {
    const { facts } = staffScanNotes(scan);
    expect(facts).toEqual([
      { key: "bo.orders.files.scan.binary", values: {} },
      { key: "bo.orders.files.scan.triangles", values: { count: 2400 } },
      { key: "bo.orders.files.scan.size", values: { x: 12.5, y: 9, z: 4.2 } },
    ]);
    expect(staffScanNotes({ ...scan, size: null }).facts.map((fact) => fact.key)).not.toContain("bo.orders.files.scan.size");
  });

  it("names a PLY or OBJ the doctor sent, in every language (ADR 102)", () => {
    const sources = [{ format: "binary", source: "ply" }, { format: "ascii", source: "ply" }, { format: "ascii", source: "obj" }] as const;
    expect(sources.map((kind) => staffScanNotes({ ...scan, ...kind }).facts[0]!.key)).toEqual(["bo.orders.files.scan.binary_ply", "bo.orders.files.scan.ascii_ply", "bo.orders.files.scan.ascii_obj"]);
    for (const language of LANGUAGES) {
      const missing: string[] = [];
      const t = createTranslator(resources[language].common, (key) => missing.push(key), language);
      for (const kind of sources) expect(t(staffScanNotes({ ...scan, ...kind }).facts[0]!.key)).toMatch(/STL/);
      expect(missing, language).toEqual([]);
    }
  });

  it("gives each warning the numbers behind it", () => {
    expect(staffScanNotes(scan).notes).toEqual([
      { key: "bo.orders.files.scan.warnings.too_small", values: { largest: 12.5 } },
      { key: "bo.orders.files.scan.warnings.too_large", values: { largest: 12.5 } },
      { key: "bo.orders.files.scan.warnings.degenerate", values: { count: 3 } },
      { key: "bo.orders.files.scan.warnings.open_mesh", values: { count: 17 } },
      { key: "bo.orders.files.scan.warnings.bad_coordinates", values: { count: 5 } },
      { key: "bo.orders.files.scan.warnings.extra_bytes", values: { bytes: 37, count: 2400 } },
    ]);
  });

  it("writes the extra bytes and the header's triangle count out for staff", () => {
    const { t } = translator("ru");
    const note = staffScanNotes({ ...scan, warnings: ["extra_bytes"] }).notes[0]!;
    expect(render(t, note)).toBe("После последнего треугольника в файле есть лишние байты (37); модель прочитана по заголовку файла: треугольников — 2400. Файл сохранён без изменений.");
  });

  it.each(LANGUAGES)("has every fact and warning text in %s, each number filled in", (language) => {
    const { t, missing } = translator(language);
    const { facts, notes } = staffScanNotes(scan);
    for (const note of [...facts, ...notes]) {
      const text = render(t, note);
      expect(text, note.key).not.toMatch(/\{\{/);
      for (const value of Object.values(note.values)) expect(text, note.key).toContain(String(value));
    }
    expect(render(t, notes[5]!)).toMatch(/37[^0-9]+2400/);
    expect(missing).toEqual([]);
  });
});
