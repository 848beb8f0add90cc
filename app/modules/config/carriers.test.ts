import { describe, expect, it } from "vitest";
import { carrierName, DEFAULT_CARRIERS, parseCarriers, trackingLink } from "./carriers";

describe("shipping carriers", () => {
  it("builds the carrier's tracking link with the number in it, escaped", () => {
    expect(trackingLink(DEFAULT_CARRIERS, "cdek", "1234567890")).toBe("https://www.cdek.ru/ru/tracking/?order_id=1234567890");
    expect(trackingLink(DEFAULT_CARRIERS, "ups", "1Z 999&x")).toBe("https://www.ups.com/track?tracknum=1Z%20999%26x");
  });

  it("gives no link without a carrier, for an unknown one or one without a page", () => {
    expect(trackingLink(DEFAULT_CARRIERS, null, "123")).toBeNull();
    expect(trackingLink(DEFAULT_CARRIERS, "pigeon", "123")).toBeNull();
    expect(trackingLink(DEFAULT_CARRIERS, "other", "123")).toBeNull();
    expect(carrierName(DEFAULT_CARRIERS, "other")).toBeNull();
    expect(carrierName(DEFAULT_CARRIERS, "dhl")).toBe("DHL Express");
  });

  it("reads SHIPPING_CARRIERS and refuses an entry it cannot read", () => {
    expect(parseCarriers("pek|PEK Express|https://pek.example/t/{number}; own|Own courier|")).toEqual([
      { id: "pek", name: "PEK Express", trackingUrl: "https://pek.example/t/{number}" },
      { id: "own", name: "Own courier", trackingUrl: "" },
    ]);
    expect(() => parseCarriers("PEK|x|https://pek.example/{number}")).toThrow(/SHIPPING_CARRIERS/);
    expect(() => parseCarriers("pek|PEK|http://pek.example/{number}")).toThrow(/https/);
    expect(() => parseCarriers("pek|PEK|https://pek.example/")).toThrow(/\{number\}/);
  });
});
