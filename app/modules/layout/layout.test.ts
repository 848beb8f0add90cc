import { describe, expect, it } from "vitest";
import { layoutFor } from "./layout";

describe("layout rules", () => {
  it("shows everything on public pages", () => {
    for (const path of ["/", "/en", "/privacy", "/cabinet", "/thankyou"]) {
      expect(layoutFor(path)).toEqual({ header: true, footer: true, banner: true, messenger: true, cookieNotice: true });
    }
  });
  it("hides header, footer, banner and messenger in the back-office", () => {
    expect(layoutFor("/backoffice")).toEqual({ header: false, footer: false, banner: false, messenger: false, cookieNotice: true });
    expect(layoutFor("/backoffice/ftp").messenger).toBe(false);
    expect(layoutFor("/backofficeX").messenger).toBe(false);
  });
  it("keeps only the messenger and cookie notice in the order wizard", () => {
    expect(layoutFor("/order")).toEqual({ header: false, footer: false, banner: false, messenger: true, cookieNotice: true });
  });
  it("hides everything on the packer page", () => {
    expect(layoutFor("/packer")).toEqual({ header: false, footer: false, banner: false, messenger: false, cookieNotice: false });
  });
  it("hides the header on /auth and the banner on /partner only", () => {
    expect(layoutFor("/auth")).toMatchObject({ header: false, footer: true, banner: true });
    expect(layoutFor("/partner")).toMatchObject({ header: true, footer: true, banner: false });
  });
});
