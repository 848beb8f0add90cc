import { describe, expect, it } from "vitest";
import { isCrossSiteRefused, mayForwardOrigin, type RequestFacts } from "./same-origin";

const base: RequestFacts = { method: "POST", path: "/backoffice/login", siteOrigin: "https://aligners.ru", origin: null, secFetchSite: null };

describe("cross-site request check", () => {
  it("lets reads through", () => {
    for (const method of ["GET", "HEAD", "OPTIONS"]) expect(isCrossSiteRefused({ ...base, method, origin: "https://evil.test" })).toBe(false);
  });
  it("accepts a form posted from the site itself", () => {
    expect(isCrossSiteRefused({ ...base, origin: "https://aligners.ru" })).toBe(false);
    expect(isCrossSiteRefused({ ...base, secFetchSite: "same-origin" })).toBe(false);
  });
  it("refuses a form posted from another site", () => {
    expect(isCrossSiteRefused({ ...base, origin: "https://evil.test" })).toBe(true);
    expect(isCrossSiteRefused({ ...base, origin: "http://aligners.ru" })).toBe(true);
    expect(isCrossSiteRefused({ ...base, secFetchSite: "cross-site" })).toBe(true);
    expect(isCrossSiteRefused({ ...base, secFetchSite: "same-site" })).toBe(true);
  });
  it("refuses a state change that carries neither header", () => {
    expect(isCrossSiteRefused(base)).toBe(true);
    expect(isCrossSiteRefused({ ...base, method: "DELETE", origin: "null" })).toBe(true);
  });
  it("leaves webhooks and the cron route to their own secrets", () => {
    expect(isCrossSiteRefused({ ...base, path: "/api/webhooks/stripe", origin: "https://stripe.example" })).toBe(false);
    expect(isCrossSiteRefused({ ...base, path: "/api/cron" })).toBe(false);
  });
  it("decides the exemption on the path the router will use", () => {
    const foreign = { ...base, origin: "https://evil.test" };
    for (const path of ["/api/webhooks/../../language", "/api/webhooks/%2e%2e/%2e%2e/language", "/api/webhooks/..\\..\\language", "/api/cron/../language", "/api/webhooks/x/../../../order?intent=next"]) {
      expect(isCrossSiteRefused({ ...foreign, path }), path).toBe(true);
    }
    // An encoded slash is not a separator for the router either: the path stays under the webhooks.
    expect(isCrossSiteRefused({ ...foreign, path: "/api/webhooks/..%2F..%2Flanguage" })).toBe(false);
    expect(isCrossSiteRefused({ ...foreign, path: "/API/Webhooks/stripe" })).toBe(false);
    expect(isCrossSiteRefused({ ...foreign, path: "/api/webhooks/stripe?x=/../../language" })).toBe(false);
  });
  it("refuses a state change whose target the router cannot read", () => {
    expect(isCrossSiteRefused({ ...base, origin: "https://evil.test", path: "/api/webhooks/%" })).toBe(true);
  });
});

describe("the Origin handed on to the router", () => {
  const accepted = { ...base, origin: "https://aligners.ru", host: "aligners.ru" };
  it("keeps an Origin that names the Host exactly", () => {
    expect(mayForwardOrigin(accepted)).toBe(true);
    expect(mayForwardOrigin({ ...accepted, method: "GET", origin: "https://evil.test" })).toBe(true);
  });
  it("drops it where the router's own check would answer 500", () => {
    expect(mayForwardOrigin({ ...accepted, path: "/api/webhooks/unknown", origin: "https://evil.test" })).toBe(false);
    expect(mayForwardOrigin({ ...accepted, path: "/api/cron", origin: "not a url" })).toBe(false);
    expect(mayForwardOrigin({ ...accepted, origin: "null", secFetchSite: "same-origin" })).toBe(false);
    expect(mayForwardOrigin({ ...accepted, host: "ALIGNERS.RU" })).toBe(false);
  });
});
