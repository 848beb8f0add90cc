import { describe, expect, it } from "vitest";
import { readablePhone } from "./phone";

describe("a phone number as people read it", () => {
  it("groups a Russian number typed as bare digits", () => {
    expect(readablePhone("89001234567")).toBe("+7 900 123-45-67");
    expect(readablePhone("+79001234567")).toBe("+7 900 123-45-67");
    expect(readablePhone("79001234567")).toBe("+7 900 123-45-67");
  });

  it("keeps a number already grouped, or another country's, as typed", () => {
    expect(readablePhone("+7 (900) 123-45-67")).toBe("+7 (900) 123-45-67");
    expect(readablePhone("+49 30 1234567")).toBe("+49 30 1234567");
    expect(readablePhone("12345")).toBe("12345");
  });
});
