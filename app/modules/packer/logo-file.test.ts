import { describe, expect, it } from "vitest";
import { checkLogo, logoTypeFromName, sniffLogoType } from "./logo-file";

const bytes = (...values: number[]) => new Uint8Array(values);
const text = (value: string) => new TextEncoder().encode(value);
const PNG = bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13);
const JPEG = bytes(0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46);
const WEBP = new Uint8Array([...text("RIFF"), 0x24, 0, 0, 0, ...text("WEBPVP8 ")]);

describe("logo types", () => {
  it("knows the allowed extensions, in any case", () => {
    expect(["a.png", "b.JPG", "c.jpeg", "d.webp", "e.SVG"].map(logoTypeFromName)).toEqual(["image/png", "image/jpeg", "image/jpeg", "image/webp", "image/svg+xml"]);
    expect(["a.gif", "b.svgz", "c", "d.png.exe", "e.html"].map(logoTypeFromName)).toEqual([null, null, null, null, null]);
  });

  it("recognises pictures by their magic bytes", () => {
    expect(sniffLogoType(PNG)).toBe("image/png");
    expect(sniffLogoType(JPEG)).toBe("image/jpeg");
    expect(sniffLogoType(WEBP)).toBe("image/webp");
    expect(sniffLogoType(text("RIFF\0\0\0\0WAVEfmt "))).toBeNull();
    expect(sniffLogoType(text("GIF89a"))).toBeNull();
  });

  it.each([
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"></svg>',
    '\uFEFF<?xml version="1.0" encoding="UTF-8"?>\n<!-- Generator: Adobe Illustrator -->\n<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">\n<svg version="1.1">',
    "  <SVG>",
  ])("recognises SVG by its text: %s", (source) => {
    expect(sniffLogoType(text(source))).toBe("image/svg+xml");
  });

  it.each(["<html><svg></svg></html>", "<?xml version='1.0'?><rss/>", "plain text", "<svgx>"])("refuses non-SVG text: %s", (source) => {
    expect(sniffLogoType(text(source))).toBeNull();
  });

  it("refuses binary junk and a cut in the middle of a character is not junk", () => {
    expect(sniffLogoType(bytes(0, 1, 2, 3, 0xff, 0xfe))).toBeNull();
    const cut = text(`<svg><title>${"ж".repeat(3000)}</title></svg>`).subarray(0, 4095);
    expect(sniffLogoType(cut)).toBe("image/svg+xml");
  });

  it("needs the extension and the content to agree", () => {
    expect(checkLogo("logo.png", PNG)).toEqual({ ok: true, contentType: "image/png" });
    expect(checkLogo("logo.jpg", JPEG)).toEqual({ ok: true, contentType: "image/jpeg" });
    expect(checkLogo("logo.svg", text("<svg/>"))).toEqual({ ok: true, contentType: "image/svg+xml" });
    expect(checkLogo("logo.png", JPEG)).toEqual({ ok: false, reason: "content" });
    expect(checkLogo("logo.svg", text("<script>alert(1)</script>"))).toEqual({ ok: false, reason: "content" });
    expect(checkLogo("logo.gif", text("GIF89a"))).toEqual({ ok: false, reason: "format" });
    expect(checkLogo("logo.png", new Uint8Array())).toEqual({ ok: false, reason: "empty" });
  });
});
