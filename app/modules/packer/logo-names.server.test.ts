import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { assertValidKey } from "~/modules/storage/keys";
import { encodeLogoEmail, isLogoFolder, logoFolder, logoKey } from "./logo-names.server";

const sha8 = (text: string) => createHash("sha256").update(text).digest("hex").slice(0, 8);

describe("logo folders (DESIGN §4.28)", () => {
  it("encodes the e-mail as the spec says: URI-encoded, then % @ . to underscores", () => {
    expect(encodeLogoEmail("info@ulybka-dental.ru")).toBe("info_40ulybka-dental_ru");
    expect(encodeLogoEmail("Dr.Ivanov+Orto@Clinic.RU")).toBe("dr_ivanov_2Borto_40clinic_ru");
  });

  it("adds the first 8 hex characters of the SHA-256 of the lower-cased e-mail", () => {
    expect(logoFolder("info@ulybka-dental.ru")).toBe(`info_40ulybka-dental_ru-${sha8("info@ulybka-dental.ru")}`);
    expect(logoFolder("  INFO@Ulybka-Dental.ru ")).toBe(logoFolder("info@ulybka-dental.ru"));
  });

  it("keeps e-mails that encode alike in different folders", () => {
    expect(encodeLogoEmail("a.b@x.ru")).toBe(encodeLogoEmail("a_b@x.ru"));
    expect(logoFolder("a.b@x.ru")).not.toBe(logoFolder("a_b@x.ru"));
  });

  it("names the file by the encoded e-mail and makes valid, bounded storage keys", () => {
    expect(logoKey("info@ulybka-dental.ru")).toBe(`${logoFolder("info@ulybka-dental.ru")}/info_40ulybka-dental_ru`);
    const long = `${"очень.длинный.адрес".repeat(10)}@clinic.ru`;
    expect(() => assertValidKey(logoKey(long))).not.toThrow();
    expect(logoFolder(long).length).toBeLessThanOrEqual(109);
    expect(isLogoFolder(logoFolder(long))).toBe(true);
    expect(isLogoFolder(logoFolder("o'brien(x)@mail.ie"))).toBe(true);
  });

  it("accepts as a URL folder only what logoFolder can make", () => {
    for (const bad of ["../secrets", "info_40x_ru", "info_40x_ru-ZZZZZZZZ", "a/b-12345678", "", "x-123456789"]) expect(isLogoFolder(bad)).toBe(false);
  });
});
