import { describe, expect, it } from "vitest";
import { cookiePairs } from "./cookie-header";

describe("cookiePairs", () => {
  it("reads the pairs of a Cookie header as sent, values not decoded", () => {
    expect(cookiePairs("lng=en; cookie_ok=1;  order=s%3Aabc.def==")).toEqual([
      ["lng", "en"],
      ["cookie_ok", "1"],
      ["order", "s%3Aabc.def=="],
    ]);
  });

  it("keeps a pair without '=' as a name, and skips empty parts", () => {
    expect(cookiePairs("flag; ;a=")).toEqual([
      ["flag", ""],
      ["a", ""],
    ]);
  });

  it("gives nothing for no header", () => {
    expect(cookiePairs(null)).toEqual([]);
    expect(cookiePairs(undefined)).toEqual([]);
  });
});
