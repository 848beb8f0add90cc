import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { CODE_SPACE, codeAt, codeSpaceUsage, orderIdWithCode } from "./order-codes";

describe("order code space", () => {
  it("has 65,536 codes, every position wrapping onto one of them", () => {
    expect(CODE_SPACE).toBe(65_536);
    expect(codeAt(0)).toBe("0000");
    expect(codeAt(0xabc)).toBe("0abc");
    expect(codeAt(65_535)).toBe("ffff");
    expect(codeAt(65_536)).toBe("0000");
    expect(codeAt(65_536 + 0x1f)).toBe("001f");
    expect(codeAt(-1)).toBe("ffff");
  });

  it("makes a version 4 UUID that starts with the chosen code and keeps the rest of the random one", () => {
    for (const code of ["0000", "ffff", "a1b2", "0042"]) {
      const random = randomUUID();
      const id = orderIdWithCode(code, random);
      expect(id.slice(0, 4)).toBe(code);
      expect(id.slice(4)).toBe(random.slice(4));
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    }
    expect(orderIdWithCode("beef", "AAAAAAAA-BBBB-4CCC-8DDD-EEEEEEEEEEEE")).toBe("beefaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee");
  });

  it("refuses what is not a code or not a version 4 UUID", () => {
    const random = randomUUID();
    for (const code of ["", "abc", "abcde", "ABCD", "g000", "../x"]) expect(() => orderIdWithCode(code, random), code).toThrow(/order code/);
    expect(() => orderIdWithCode("abcd", "not-a-uuid")).toThrow(/UUID/);
    expect(() => orderIdWithCode("abcd", "6ba7b810-9dad-11d1-80b4-00c04fd430c8")).toThrow(/UUID/);
  });

  it("says how full the space is, rounded down, with a warning only above 80 %", () => {
    expect(codeSpaceUsage(0)).toEqual({ held: 0, total: 65_536, percent: 0, warning: false });
    // 80 % exactly is not above 80 %.
    expect(codeSpaceUsage(52_428.8)).toMatchObject({ held: 52_428, warning: false });
    expect(codeSpaceUsage(52_429)).toMatchObject({ percent: 80, warning: true });
    expect(codeSpaceUsage(64_881)).toMatchObject({ percent: 99, warning: true });
    // One code free is not "100 %".
    expect(codeSpaceUsage(65_535).percent).toBe(99.9);
    expect(codeSpaceUsage(65_536)).toEqual({ held: 65_536, total: 65_536, percent: 100, warning: true });
    expect(codeSpaceUsage(70_000).held).toBe(65_536);
    expect(codeSpaceUsage(-3).held).toBe(0);
  });
});
