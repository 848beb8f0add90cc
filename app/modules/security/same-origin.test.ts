import { describe, expect, it } from "vitest";
import { isCrossSiteRefused, type RequestFacts } from "./same-origin";

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
});
