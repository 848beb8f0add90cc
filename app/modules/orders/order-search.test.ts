import { describe, expect, it } from "vitest";
import { containsPattern, orderIdPrefix } from "./order-search.server";
import { isShortSearch } from "./search-length";

describe("order search texts", () => {
  it("reads an order code or id prefix in any case, after # or №, and nothing else as one", () => {
    expect(orderIdPrefix("c8b2")).toBe("c8b2");
    expect(orderIdPrefix(" #C8B2 ")).toBe("c8b2");
    expect(orderIdPrefix("№ c8")).toBe("c8");
    expect(orderIdPrefix("c8b2f0e1-7a")).toBe("c8b2f0e1-7a");
    expect(orderIdPrefix("c8b2f0e1-7a3c-4d5e-9f00-0123456789ab")).toBe("c8b2f0e1-7a3c-4d5e-9f00-0123456789ab");
    // Letters beyond f, a hyphen where a UUID has none, a text too long: a substring only.
    expect(orderIdPrefix("Волков 7033")).toBeNull();
    expect(orderIdPrefix("ivan@clinic.ru")).toBeNull();
    expect(orderIdPrefix("345-67-89")).toBeNull();
    expect(orderIdPrefix("c8b2f0e1-7a3c-4d5e-9f00-0123456789abc")).toBeNull();
    expect(orderIdPrefix("#")).toBeNull();
  });

  it("takes the pattern characters of a text literally", () => {
    expect(containsPattern("50%_off\\")).toBe("%50\\%\\_off\\\\%");
  });

  it("calls a text short when it has no trigram", () => {
    expect(isShortSearch("ab")).toBe(true);
    expect(isShortSearch(" Ё ")).toBe(true);
    expect(isShortSearch("abc")).toBe(false);
    expect(isShortSearch("")).toBe(false);
  });
});
