import { describe, expect, it } from "vitest";
import { localTarget } from "./redirect-target";

describe("where a return address may lead", () => {
  it("keeps local paths, with their query, as the URL parser writes them", () => {
    expect(localTarget("/backoffice/ftp?page=2", "/")).toBe("/backoffice/ftp?page=2");
    expect(localTarget("/en/order", "/")).toBe("/en/order");
    expect(localTarget("/ru", "/")).toBe("/ru");
    expect(localTarget("/backoffice/../cabinet", "/")).toBe("/cabinet");
  });

  it("falls back on other sites and odd values", () => {
    for (const value of ["https://evil.test", "//evil.test", "/\\evil.test", "javascript:alert(1)", "", null, undefined, 42]) {
      expect(localTarget(value, "/cabinet")).toBe("/cabinet");
    }
  });

  it("falls back on a path that leads to another site once its dot segments are resolved or its language prefix is taken off", () => {
    for (const value of ["/.//evil.test", "/./\\evil.test", "/ru//evil.test", "/en/\\evil.test", "/de/.//evil.test", "/en/..//evil.test", "/ru/%2e%2e//evil.test", "/it/%2E%2E/%2e%2e//evil.test"]) {
      expect(localTarget(value, "/cabinet"), value).toBe("/cabinet");
    }
  });

  it("calls malformed what no browser sends as it is: control characters, characters beyond ASCII, a percent sign that does not decode", () => {
    for (const value of ["/\t/evil.test", "/\n/evil.test", "/\r\n/evil.test", "/\u0000/x", "/cabinet\u007f", "/\u0100", "/заказ", "/caf\u00e9", "/%", "/order?q=%zz"]) {
      expect(localTarget(value, "/cabinet"), JSON.stringify(value)).toBeNull();
    }
  });
});
