import { describe, expect, it } from "vitest";
import { isStaffPath } from "./text-areas";

describe("isStaffPath", () => {
  it("knows the staff areas, their sub-pages and their data requests", () => {
    for (const path of ["/backoffice", "/backoffice/", "/backoffice/ftp", "/backoffice.data", "/backoffice/orders/1/status", "/send-test", "/packer", "/packer/box/1"]) {
      expect(isStaffPath(path), path).toBe(true);
    }
  });

  it("leaves customer pages, and look-alike paths, to the customer texts", () => {
    for (const path of ["/", "/en", "/order", "/order.data", "/cabinet", "/partner", "/backofficex", "/packers", "/auth"]) {
      expect(isStaffPath(path), path).toBe(false);
    }
  });
});
