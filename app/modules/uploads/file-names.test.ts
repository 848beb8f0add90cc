import { describe, expect, it } from "vitest";
import { assertValidKey } from "~/modules/storage/keys";
import {
  hasMeshExtension,
  isFileType,
  MAX_STORED_BASE_LENGTH,
  StorageKeyError,
  storageKey,
  storedFileName,
  transliterate,
} from "./file-names";

const now = new Date(1_700_000_000_123);
const ts = "1700000000123";
const ORDER = "0b6f1c9e-3f2a-4c1d-9e8b-7a6d5c4b3a21";

describe("transliterate", () => {
  it("covers the whole Russian alphabet in lower and upper case", () => {
    expect(transliterate("абвгдеёжзийклмнопрстуфхцчшщъыьэюя")).toBe("abvgdeyozhziyklmnoprstufkhtschshshchyeyuya");
    expect(transliterate("Ёлка Йога Царь Щука Ъ Ь Ырка Эра Юла Яма")).toBe("Yolka Yoga Tsar Shchuka   Yrka Era Yula Yama");
  });

  it("writes all-caps words in capitals", () => {
    expect(transliterate("ЩУКА")).toBe("SHCHUKA");
    expect(transliterate("НЧ")).toBe("NCH");
    expect(transliterate("ВЧ ШАГ")).toBe("VCH SHAG");
    expect(transliterate("Ж")).toBe("Zh");
  });

  it("handles decomposed letters (as macOS sends them) and leaves Latin alone", () => {
    expect(transliterate("Йод и ёж".normalize("NFD"))).toBe("Yod i yozh");
    expect(transliterate("Model_01-upper")).toBe("Model_01-upper");
  });

  it("knows Ukrainian letters", () => {
    expect(transliterate("Їжак Євген ґанок і")).toBe("Yizhak Yevgen ganok i");
  });
});

describe("storedFileName", () => {
  it("transliterates, replaces unsafe characters and adds the timestamp before .stl", () => {
    expect(storedFileName("Шаг 01 верх.STL", now)).toBe(`Shag_01_verkh_${ts}.stl`);
    expect(storedFileName("Иванов Пётр (НЧ).stl", now)).toBe(`Ivanov_Pyotr_NCH_${ts}.stl`);
    expect(storedFileName("upper-jaw.v2.stl", now)).toBe(`upper-jaw.v2_${ts}.stl`);
    expect(storedFileName("Café Zähne.stl", now)).toBe(`Cafe_Zahne_${ts}.stl`);
    expect(storedFileName("модель №5 — финал!!.Stl", now)).toBe(`model_No5_final_${ts}.stl`);
  });

  it("keeps only the last path segment and never yields dot segments", () => {
    expect(storedFileName("../../etc/passwd.stl", now)).toBe(`passwd_${ts}.stl`);
    expect(storedFileName("C:\\Users\\Врач\\scan.stl", now)).toBe(`scan_${ts}.stl`);
    expect(storedFileName("a/..", now)).toBe(`file_${ts}.stl`);
    expect(storedFileName("...stl", now)).toBe(`file_${ts}.stl`);
    expect(storedFileName("..hidden..name...stl", now)).toBe(`hidden.name_${ts}.stl`);
    expect(storedFileName("", now)).toBe(`file_${ts}.stl`);
    expect(storedFileName("😀 ✓.stl", now)).toBe(`file_${ts}.stl`);
  });

  it("lower-cases the extension and adds .stl to a name without it", () => {
    expect(storedFileName("SCAN.STL", now)).toBe(`SCAN_${ts}.stl`);
    expect(storedFileName("scan.3mf", now)).toBe(`scan.3mf_${ts}.stl`);
  });

  it("names the STL made from a PLY or OBJ after it", () => {
    expect(storedFileName("Верх.PLY", now)).toBe(`Verkh_${ts}.stl`);
    expect(storedFileName("plan.obj", now)).toBe(`plan_${ts}.stl`);
  });

  it("trims a long base to 80 characters", () => {
    const name = storedFileName(`${"щ".repeat(100)}.stl`, now);
    expect(name).toBe(`${"shch".repeat(20)}_${ts}.stl`);
    expect(name.length).toBe(MAX_STORED_BASE_LENGTH + `_${ts}.stl`.length);
    expect(storedFileName(`${"a".repeat(79)} b.stl`, now)).toBe(`${"a".repeat(79)}_${ts}.stl`); // no trailing "_"
  });

  it("always yields a name that is safe in a storage key", () => {
    const names = ["Шаг 01 верх.STL", "../..", "a\u0000b.stl", "con.stl", " .stl", "-rf.stl", "a\\b/c", "%2e%2e.stl", "ё".repeat(300)];
    for (const original of names) {
      const stored = storedFileName(original, now);
      expect(stored).toMatch(/^[A-Za-z0-9][A-Za-z0-9._-]*_1700000000123\.stl$/);
      expect(() => storageKey(ORDER, "patient_1", "aligners", stored)).not.toThrow();
    }
  });

  it("refuses an invalid date", () => {
    expect(() => storedFileName("a.stl", new Date(Number.NaN))).toThrow(RangeError);
  });
});

describe("hasMeshExtension", () => {
  it("accepts .stl, .ply and .obj in any case, only at the end", () => {
    expect(hasMeshExtension("a.stl")).toBe(true);
    expect(hasMeshExtension("Шаг.STL")).toBe(true);
    expect(hasMeshExtension("a.StL")).toBe(true);
    expect(hasMeshExtension("a.stl.txt")).toBe(false);
    expect(hasMeshExtension("stl")).toBe(false);
    expect(hasMeshExtension("a.stl ")).toBe(false);
    expect(hasMeshExtension("a_stl")).toBe(false);
    expect(hasMeshExtension("scan.PLY")).toBe(true);
    expect(hasMeshExtension("plan.obj")).toBe(true);
    expect(hasMeshExtension("plan.obj.zip")).toBe(false);
  });
});

describe("storageKey", () => {
  it("builds order_{id}/{folder}/{type}/{name}", () => {
    expect(storageKey(ORDER, "ivanov_petr-1", "matrix", `Shag_01_${ts}.stl`)).toBe(`order_${ORDER}/ivanov_petr-1/matrix/Shag_01_${ts}.stl`);
    expect(storageKey(ORDER.toUpperCase(), "p", "retainer", "a.stl")).toBe(`order_${ORDER}/p/retainer/a.stl`);
    const key = storageKey(ORDER, "p", "aligners", "a.stl");
    expect(() => assertValidKey(key)).not.toThrow();
  });

  it("refuses a bad order id", () => {
    for (const id of ["", "123", "../x", `${ORDER}/..`, `${ORDER} `, "0b6f1c9e3f2a4c1d9e8b7a6d5c4b3a21"]) {
      expect(() => storageKey(id, "p", "matrix", "a.stl"), id).toThrow(StorageKeyError);
    }
  });

  it("refuses a bad patient folder", () => {
    for (const folder of ["", "..", ".", "a/b", "a\\b", "Иванов", "a b", "a.b", "x".repeat(201)]) {
      expect(() => storageKey(ORDER, folder, "matrix", "a.stl"), folder).toThrow(StorageKeyError);
    }
  });

  it("refuses an unknown file type", () => {
    for (const type of ["", "matrices", "../matrix", "MATRIX"]) {
      expect(() => storageKey(ORDER, "p", type as never, "a.stl"), type).toThrow(StorageKeyError);
    }
    expect(isFileType("aligners")).toBe(true);
    expect(isFileType("logo")).toBe(false);
  });

  it("refuses an unsafe stored name", () => {
    for (const name of [
      "",
      ".",
      "..",
      "../a.stl",
      "a/b.stl",
      "a..stl",
      ".hidden.stl",
      "-a.stl",
      "a b.stl",
      "шаг.stl",
      "a\\b",
      "x".repeat(256),
    ]) {
      expect(() => storageKey(ORDER, "p", "matrix", name), name).toThrow(StorageKeyError);
    }
  });
});
