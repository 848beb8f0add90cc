import { describe, expect, it } from "vitest";
import { hostName, marketForHost } from "./market";

describe("market from the Host header", () => {
  it("treats any .com host as international by default", () => {
    expect(marketForHost("aligners.com", ["*.com"])).toBe("international");
    expect(marketForHost("www.aligners.com:443", ["*.com"])).toBe("international");
  });
  it("treats every other host as domestic", () => {
    for (const host of ["aligners.ru", "localhost:3000", "127.0.0.1", "com", "aligners.com.ru", "", null]) {
      expect(marketForHost(host, ["*.com"])).toBe("domestic");
    }
  });
  it("honours exact host names in the list", () => {
    expect(marketForHost("eu.aligners.io", ["eu.aligners.io"])).toBe("international");
    expect(marketForHost("aligners.io", ["eu.aligners.io"])).toBe("domestic");
  });
  it("treats the zero-configuration host international.localhost as international, whatever the list", () => {
    expect(marketForHost("international.localhost:3000", ["*.com"])).toBe("international");
    expect(marketForHost("International.Localhost", [])).toBe("international");
    expect(marketForHost("shop.localhost:3000", ["*.com"])).toBe("domestic");
  });
  it("strips ports and case", () => {
    expect(hostName("Shop.Example.COM:8080")).toBe("shop.example.com");
    expect(hostName("[::1]:3000")).toBe("[::1]");
  });
});
