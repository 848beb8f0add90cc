import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { isHostAllowed } from "~/modules/security/allowed-host";
import { marketForHost } from "~/modules/market/market";
import { loadConfig } from "./config.server";

/** Both markets on a plain `npm start` (ADR 048): the international origin defaults to international.localhost. */
describe("public origins with no configuration", () => {
  const dataDir = () => fs.mkdtempSync(path.join(os.tmpdir(), "aligner-origins-"));

  it("are localhost for the domestic market and international.localhost for the international one, answered and told apart", () => {
    const config = loadConfig({ DATA_DIR: dataDir(), PORT: "3000" });
    expect(config.publicOrigins).toEqual({ domestic: "http://localhost:3000", international: "http://international.localhost:3000" });
    const host = new URL(config.publicOrigins.international).host;
    expect(isHostAllowed(host, config)).toBe(true);
    expect(marketForHost(host, config.internationalHosts)).toBe("international");
    expect(marketForHost(new URL(config.publicOrigins.domestic).host, config.internationalHosts)).toBe("domestic");
  });

  it("are the configured ones when given", () => {
    const config = loadConfig({ DATA_DIR: dataDir(), PUBLIC_URL_INTERNATIONAL: "https://eu.aligners.example" });
    expect(config.publicOrigins.international).toBe("https://eu.aligners.example");
  });
});
