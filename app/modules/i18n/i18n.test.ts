import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";

describe("translations at render time", () => {
  beforeAll(() => {
    process.env.APP_ENV = "test";
    process.env.DATA_DIR = fs.mkdtempSync(path.join(os.tmpdir(), "aligner-i18n-"));
  });

  it("renders a known key in the requested language", async () => {
    const { remixI18n } = await import("./i18n.server");
    const t = await remixI18n.getFixedT("de", "common");
    expect(t("orderStatus.pending")).toBe("Zahlung ausstehend");
    expect(t("footer.copyright", { year: 2026 })).toBe("© 2026 Aligner Lab");
  });

  it("fails loudly in tests on a key that no locale has", async () => {
    const { remixI18n } = await import("./i18n.server");
    const t = await remixI18n.getFixedT("en", "common");
    expect(() => t("no.such.key")).toThrow(/Missing translation: common:no.such.key/);
  });
});
