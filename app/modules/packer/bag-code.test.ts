import { describe, expect, it } from "vitest";
import { BAG_CODE_LENGTH, bagCode, dammDigit, groupedBagCode, orderPart, readBagCode } from "./bag-code";
import { QR_QUIET_ZONE, qrMatrix } from "./qr.server";

const ORDER = "deadbeef-1234-4abc-8def-0123456789ab";

describe("bag codes (ADR 103)", () => {
  it("names the order, patient, kind, jaw and stage in 19 digits with a Damm check digit", () => {
    const code = bagCode(ORDER, { patient: 2, kind: "aligners", jaw: "lower", step: 7 });
    expect(code).toMatch(/^\d{19}$/);
    expect(code).toHaveLength(BAG_CODE_LENGTH);
    expect(code.slice(0, 18)).toBe("3735928559" + "002" + "2" + "2" + "007");
    expect(orderPart(ORDER)).toBe("3735928559");
    expect(dammDigit(code)).toBe(0);
    expect(groupedBagCode(code)).toBe(`3735928559 002 22 007 ${code[18]}`);
    // A file without a step is its own jaw digit, not step 0.
    expect(bagCode(ORDER, { patient: 1, kind: "retainer", jaw: "upper", step: null }).slice(10, 18)).toBe("00133000");
    expect(bagCode(ORDER, { patient: 1, kind: "retainer", jaw: "upper", step: 0 }).slice(10, 18)).toBe("00131000");
  });

  it("reads back what it makes, whatever spaces or hyphens a person types", () => {
    for (const facts of [
      { patient: 1, kind: "matrix", jaw: "upper", step: null },
      { patient: 12, kind: "aligners", jaw: "lower", step: 45 },
      { patient: 999, kind: "retainer", jaw: "lower", step: 999 },
    ] as const) {
      const code = bagCode(ORDER, facts);
      expect(readBagCode(code)).toEqual({ ok: true, code, order: "3735928559", facts });
      expect(readBagCode(` ${groupedBagCode(code)}\n`)).toMatchObject({ ok: true, code });
      expect(readBagCode(groupedBagCode(code).replace(/ /g, "-"))).toMatchObject({ ok: true, code });
    }
  });

  it("catches every single wrong digit and every swap of two neighbours", () => {
    const code = bagCode(ORDER, { patient: 3, kind: "aligners", jaw: "upper", step: 12 });
    for (let at = 0; at < code.length; at++) {
      for (let digit = 0; digit <= 9; digit++) {
        if (String(digit) === code[at]) continue;
        expect(readBagCode(code.slice(0, at) + digit + code.slice(at + 1)).ok).toBe(false);
      }
      if (at < code.length - 1 && code[at] !== code[at + 1]) expect(readBagCode(code.slice(0, at) + code[at + 1] + code[at] + code.slice(at + 2)).ok).toBe(false);
    }
  });

  it("refuses what is not one of ours: letters, other lengths, a kind or jaw never printed, patient 0", () => {
    const withCheck = (body: string) => body + dammDigit(body);
    for (const typed of ["", "abc", "ЗАКАЗ", "ab12/ab12_1", "123", "1".repeat(20), withCheck("373592855900142003"), withCheck("373592855900125003"), withCheck("373592855900023003"), withCheck("373592855900123003").replace(/^3/, "Ч"), withCheck("373592855900113001")]) {
      expect(readBagCode(typed)).toEqual({ ok: false, reason: "not_ours" });
    }
  });

  it("fits a small QR code: version 1 (21 modules) for the 19 digits", () => {
    const matrix = qrMatrix(bagCode(ORDER, { patient: 1, kind: "matrix", jaw: "upper", step: 1 }));
    expect(matrix.length).toBeLessThanOrEqual(25);
    expect(QR_QUIET_ZONE).toBe(4);
  });
});
