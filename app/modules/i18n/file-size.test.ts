import { describe, expect, it } from "vitest";
import { formatFileSize } from "./file-size";

describe("formatFileSize", () => {
  it("uses Russian units and a decimal comma in ru", () => {
    expect(formatFileSize(0, "ru")).toBe("0 Байт");
    expect(formatFileSize(1023, "ru")).toBe("1023 Байт");
    expect(formatFileSize(1024, "ru")).toBe("1,00 КБ");
    expect(formatFileSize(1.5 * 1024 * 1024, "ru")).toBe("1,50 МБ");
    expect(formatFileSize(104_857_600, "ru")).toBe("100,00 МБ");
    expect(formatFileSize(5 * 1024 ** 3, "ru")).toBe("5,00 ГБ");
  });

  it("uses B/KB/MB/GB and the language's separator elsewhere", () => {
    expect(formatFileSize(512, "en")).toBe("512 B");
    expect(formatFileSize(1536, "en")).toBe("1.50 KB");
    expect(formatFileSize(1.5 * 1024 * 1024, "en")).toBe("1.50 MB");
    expect(formatFileSize(1.5 * 1024 * 1024, "de")).toBe("1,50 MB");
    expect(formatFileSize(1.5 * 1024 * 1024, "fr")).toBe("1,50 MB");
    expect(formatFileSize(2 * 1024 ** 4, "en")).toBe("2048.00 GB");
  });

  it("steps up a unit instead of printing 1024.00", () => {
    expect(formatFileSize(1024 * 1024 - 1, "en")).toBe("1.00 MB");
    expect(formatFileSize(1024 * 1024 - 10 * 1024, "en")).toBe("1014.00 KB");
  });

  it("survives odd input", () => {
    expect(formatFileSize(-5, "ru")).toBe("0 Байт");
    expect(formatFileSize(Number.NaN, "en")).toBe("0 B");
    expect(formatFileSize(1024, "not a language!")).toBe("1.00 KB");
  });
});
