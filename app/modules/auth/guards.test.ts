import { describe, expect, it } from "vitest";
import { safeRedirect } from "./guards.server";

describe("redirect after sign-in or gate", () => {
  it("keeps local paths", () => {
    expect(safeRedirect("/backoffice/ftp?page=2")).toBe("/backoffice/ftp?page=2");
  });
  it("refuses other sites and odd values", () => {
    for (const value of ["https://evil.test", "//evil.test", "/\\evil.test", "javascript:alert(1)", "", null, undefined]) {
      expect(safeRedirect(value, "/cabinet")).toBe("/cabinet");
    }
  });
  it("refuses paths a browser would turn into another site, or that cannot be sent in a header", () => {
    for (const value of ["/\t/evil.test", "/\n/evil.test", "/\r\n/evil.test", "/\u0000/x", "/cabinet\u007f"]) {
      expect(safeRedirect(value, "/cabinet")).toBe("/cabinet");
    }
  });
});
