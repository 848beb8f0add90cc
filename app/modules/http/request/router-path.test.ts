import { describe, expect, it } from "vitest";
import { isMalformedHost, isMalformedTarget, routerPath } from "./router-path";

describe("the path the router will match", () => {
  it("resolves dot segments, also percent-encoded ones and backslashes, as the URL parser does", () => {
    expect(routerPath("/api/webhooks/../../language")).toBe("/language");
    expect(routerPath("/api/webhooks/%2e%2e/%2E%2E/language")).toBe("/language");
    expect(routerPath("/api/webhooks/.%2e/./../language?x=1")).toBe("/language");
    expect(routerPath("/api/webhooks\\..\\..\\language")).toBe("/language");
    expect(routerPath("/api/webhooks/..\\..\\language")).toBe("/language");
  });
  it("decodes each segment but keeps an encoded slash inside its segment, as the router does", () => {
    expect(routerPath("/api/%77ebhooks/stripe")).toBe("/api/webhooks/stripe");
    expect(routerPath("/api/webhooks/..%2F..%2Flanguage")).toBe("/api/webhooks/..%2f..%2flanguage");
    expect(routerPath("/api%2Fwebhooks/stripe")).toBe("/api%2fwebhooks/stripe");
  });
  it("reads paths in lower case, as routes match", () => {
    expect(routerPath("/API/Webhooks/Stripe")).toBe("/api/webhooks/stripe");
  });
  it("leaves the query out", () => {
    expect(routerPath("/order?step=..%2F..")).toBe("/order");
  });
  it("has no path for a target that does not decode", () => {
    expect(routerPath("/%")).toBeNull();
    expect(routerPath("/build/%E0%A4%A")).toBeNull();
  });
});

describe("malformed request targets", () => {
  it("finds a percent sign that does not decode in the path or the query", () => {
    for (const target of ["/%", "/backoffice/%", "/build/%", "/%zz", "/%E0%A4%A", "/%C0%AF", "/order?x=%", "/?q=%E0%A4%A", "/auth?sent=a%ZZb"]) {
      expect(isMalformedTarget(target), target).toBe(true);
    }
  });
  it("finds targets that are not a path", () => {
    expect(isMalformedTarget("*")).toBe(true);
    expect(isMalformedTarget("http://evil.example/order")).toBe(true);
  });
  it("lets well-formed targets through", () => {
    for (const target of ["/", "/order", "/%D0%B7%D0%B0%D0%BA%D0%B0%D0%B7", "/auth?sent=doctor%40clinic.ru&redirectTo=%2Fcabinet", "/files/orders/a%20b.stl", "/?q=100%25", "/search?q=a+b"]) {
      expect(isMalformedTarget(target), target).toBe(false);
    }
  });
});

describe("malformed Host headers", () => {
  it("finds a port that is not a port, or a name that is not one", () => {
    for (const host of ["localhost:99999", "localhost:0x50", "localhost:80abc", "aligners.ru:443:1", "[::1]:abc", "[::1", "aligners.ru:-1", ":80", "a b", "aligners.ru:99999"]) {
      expect(isMalformedHost(host), host).toBe(true);
    }
  });
  it("lets names with or without a port through (the host check decides which names)", () => {
    for (const host of ["localhost", "localhost:65535", "[::1]", "[::1]:3000", "ALIGNERS.ru:443", "", null]) expect(isMalformedHost(host), String(host)).toBe(false);
  });
});
