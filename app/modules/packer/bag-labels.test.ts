import { bagCode } from "./bag-code";
import { describe, expect, it } from "vitest";
import { bagFolderPath, buildBagLabels, comparePatientFolders, detectJaw, detectStep, formatStep, pairByStep, sortPatients } from "./bag-labels";

describe("detectJaw", () => {
  it.each([
    ["Шаг 01 верх.stl", "upper"],
    ["Шаг 01 низ.stl", "lower"],
    ["Верхняя челюсть.stl", "upper"],
    ["Нижняя челюсть.stl", "lower"],
    ["НИЖНЯЯ_ЧЕЛЮСТЬ_шаг_3.STL", "lower"],
    ["ВЧ 05.stl", "upper"],
    ["НЧ 05.stl", "lower"],
    ["05 н/ч.stl", "lower"],
    ["Петрова н.ч. шаг 2.stl", "lower"],
    ["Ретейнер низ.stl", "lower"],
    ["Ретейнер верх.stl", "upper"],
    ["Subsetup03_Upper.stl", "upper"],
    ["Subsetup03_Lower.stl", "lower"],
    ["SubsetupLower12.stl", "lower"],
    ["Maxilla.stl", "upper"],
    ["Mandible.stl", "lower"],
    ["MandibularAnatomy_stage7.stl", "lower"],
    ["Retainer_lower.stl", "lower"],
    ["LOWER 4.stl", "lower"],
    ["step_2_LoWeR.stl", "lower"],
    ["Unterkiefer_Schritt_5.stl", "lower"],
    ["OK_05.stl", "upper"],
    ["arcade_inférieure_06.stl", "lower"],
    ["mandíbula paso 3.stl", "lower"],
    ["07_L.stl", "lower"],
    ["Step8U.stl", "upper"],
    ["Step8L.stl", "lower"],
    // Transliterated stored names still work.
    ["Shag_01_niz_1700000000123.stl", "lower"],
    ["Nizhnyaya_chelyust_1700000000123.stl", "lower"],
    // Upper by default.
    ["model_05.stl", "upper"],
    ["Иванов.stl", "upper"],
    ["", "upper"],
  ] as const)("%s → %s", (name, jaw) => {
    expect(detectJaw(name)).toBe(jaw);
  });

  it("lets a real jaw word win over a stray letter, and the first jaw word decide", () => {
    expect(detectJaw("l'arcade supérieure 03.stl")).toBe("upper");
    expect(detectJaw("upper_then_lower.stl")).toBe("upper");
    expect(detectJaw("lower_not_upper.stl")).toBe("lower");
  });
});

describe("detectStep", () => {
  it.each([
    ["Шаг 01 верх.stl", 1],
    ["Шаг 1 верх.stl", 1],
    ["шаг_012_низ.stl", 12],
    ["Этап 7 НЧ.stl", 7],
    ["Subsetup03_Upper.stl", 3],
    ["Subsetup3_Lower.stl", 3],
    ["SubsetupLower12.stl", 12],
    ["Step1-Lower.stl", 1],
    ["stage_10_upper.stl", 10],
    ["Aligner #4 upper.stl", 4],
    ["Элайнер №9 нижний.stl", 9],
    ["05 н/ч.stl", 5],
    ["upper 14.stl", 14],
    ["07_L.stl", 7],
    ["Subsetup00_Upper.stl", 0],
    ["Step 100 lower.stl", 100],
    // Dates, timestamps and versions are not steps.
    ["Иванов 2024-05-01 шаг 3 верх.stl", 3],
    ["upper 6 2024-05-01.stl", 6],
    ["upper 6 01.05.24.stl", 6],
    ["Shag_01_niz_1700000000123.stl", 1],
    ["lower 8 v2.stl", 8],
  ] as const)("%s → %s", (name, step) => {
    expect(detectStep(name)).toBe(step);
  });

  it.each(["Верхняя челюсть.stl", "Retainer_lower.stl", "Mandible.stl", "upper v2.stl"])("%s has no step", (name) => {
    expect(detectStep(name)).toBeNull();
  });

  it("pads to two digits", () => {
    expect([0, 1, 9, 10, 12, 100].map(formatStep)).toEqual(["00", "01", "09", "10", "12", "100"]);
  });
});

describe("pairByStep", () => {
  const pair = (names: string[]) => pairByStep(names, (name) => name);

  it("pairs Russian names with leading zeros, uploaded in any order", () => {
    expect(pair(["Шаг 02 низ.stl", "Шаг 01 верх.stl", "Шаг 02 верх.stl", "Шаг 01 низ.stl"])).toEqual([
      { step: 1, upper: "Шаг 01 верх.stl", lower: "Шаг 01 низ.stl" },
      { step: 2, upper: "Шаг 02 верх.stl", lower: "Шаг 02 низ.stl" },
    ]);
  });

  it("pairs English names without leading zeros and sorts steps numerically", () => {
    expect(pair(["Subsetup10_Lower.stl", "Subsetup2_Upper.stl", "Subsetup10_Upper.stl", "Subsetup2_Lower.stl"])).toEqual([
      { step: 2, upper: "Subsetup2_Upper.stl", lower: "Subsetup2_Lower.stl" },
      { step: 10, upper: "Subsetup10_Upper.stl", lower: "Subsetup10_Lower.stl" },
    ]);
  });

  it("pairs one step written two ways (01 and 1) and mixed languages and case", () => {
    expect(pair(["STEP 1 UPPER.stl", "шаг 01 НИЖНЯЯ.stl"])).toEqual([{ step: 1, upper: "STEP 1 UPPER.stl", lower: "шаг 01 НИЖНЯЯ.stl" }]);
  });

  it("keeps a step with one jaw only, the other side empty", () => {
    expect(pair(["Шаг 01 верх.stl", "Шаг 01 низ.stl", "Шаг 02 верх.stl", "Шаг 03 низ.stl"])).toEqual([
      { step: 1, upper: "Шаг 01 верх.stl", lower: "Шаг 01 низ.stl" },
      { step: 2, upper: "Шаг 02 верх.stl", lower: null },
      { step: 3, upper: null, lower: "Шаг 03 низ.stl" },
    ]);
  });

  it("pairs files without numbers (a matrix) as one step", () => {
    expect(pair(["Нижняя челюсть.stl", "Верхняя челюсть.stl"])).toEqual([{ step: null, upper: "Верхняя челюсть.stl", lower: "Нижняя челюсть.stl" }]);
  });

  it("never drops a file: a second file for the same step and jaw gets its own pair", () => {
    expect(pair(["Шаг 01 верх.stl", "Шаг 01 верх (2).stl", "Шаг 01 низ.stl"])).toEqual([
      { step: 1, upper: "Шаг 01 верх.stl", lower: "Шаг 01 низ.stl" },
      { step: 1, upper: "Шаг 01 верх (2).stl", lower: null },
    ]);
  });

  it("counts a name without jaw words as upper", () => {
    expect(pair(["model_05.stl", "model_05_lower.stl"])).toEqual([{ step: 5, upper: "model_05.stl", lower: "model_05_lower.stl" }]);
  });
});

describe("patients in folder order", () => {
  it("sorts by the numeric prefix, then numerically", () => {
    expect(["ab12_10", "ab12_2", "ab12_1"].sort(comparePatientFolders)).toEqual(["ab12_1", "ab12_2", "ab12_10"]);
    expect(["10_Petrov", "2_Ivanov", "1_Sidorov"].sort(comparePatientFolders)).toEqual(["1_Sidorov", "2_Ivanov", "10_Petrov"]);
    expect(["1234_10", "1234_2"].sort(comparePatientFolders)).toEqual(["1234_2", "1234_10"]);
    expect(["b", "3_x", "a"].sort(comparePatientFolders)).toEqual(["3_x", "a", "b"]);
    expect(sortPatients([{ folderName: "x_3" }, { folderName: "x_1" }]).map((p) => p.folderName)).toEqual(["x_1", "x_3"]);
  });
});

describe("buildBagLabels", () => {
  const order = { id: "ab12cdef-0000-4000-8000-000000000000", number: "AB12", code: "ab12" };

  it("makes one label per step and jaw, patients in folder order, matrix then aligners then retainers", () => {
    const labels = buildBagLabels(order, [
      {
        patientName: "Сидорова Мария",
        folderName: "ab12_2",
        files: { matrix: [], aligners: ["Шаг 01 низ.stl", "Шаг 01 верх.stl"], retainer: [] },
      },
      {
        patientName: "Петров Пётр",
        folderName: "ab12_1",
        files: {
          matrix: ["Нижняя челюсть.stl", "Верхняя челюсть.stl"],
          aligners: ["Шаг 2 верх.stl", "Шаг 1 верх.stl", "Шаг 1 низ.stl"],
          retainer: ["Ретейнер верх.stl"],
        },
      },
    ]);
    expect(labels.map((label) => [label.folderName, label.kind, label.step, label.jaw])).toEqual([
      ["ab12_1", "matrix", null, "upper"],
      ["ab12_1", "matrix", null, "lower"],
      ["ab12_1", "aligners", "01", "upper"],
      ["ab12_1", "aligners", "01", "lower"],
      ["ab12_1", "aligners", "02", "upper"],
      ["ab12_1", "retainer", null, "upper"],
      ["ab12_2", "aligners", "01", "upper"],
      ["ab12_2", "aligners", "01", "lower"],
    ]);
    expect(labels[0]).toEqual({
      kind: "matrix",
      orderNumber: "AB12",
      patientName: "Петров Пётр",
      folderName: "ab12_1",
      jaw: "upper",
      step: null,
      fileName: "Верхняя челюсть.stl",
      folderPath: "ab12/ab12_1",
      code: bagCode(order.id, { patient: 1, kind: "matrix", jaw: "upper", step: null }),
    });
    // Each label's code names its patient's place, kind, jaw and step: all 8 differ.
    expect(new Set(labels.map((label) => label.code)).size).toBe(8);
    expect(labels[7]!.code).toBe(bagCode(order.id, { patient: 2, kind: "aligners", jaw: "lower", step: 1 }));
  });

  it("has no labels without patients or files", () => {
    expect(buildBagLabels(order, [])).toEqual([]);
    expect(buildBagLabels(order, [{ patientName: "Без файлов", folderName: "ab12_1", files: { matrix: [], aligners: [], retainer: [] } }])).toEqual([]);
  });

  it("prints the patient folder's path on the production file server", () => {
    expect(bagFolderPath("ab12", "ab12_3")).toBe("ab12/ab12_3");
  });
});
