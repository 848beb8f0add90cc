import { describe, expect, it } from "vitest";
import { isHostAllowed } from "./allowed-host";

const configured = { allowedHosts: ["aligners.ru", "aligners.com"], strict: true };

describe("the hosts the app answers", () => {
  it("answers the configured hosts, with or without a port and in any case", () => {
    for (const host of ["aligners.ru", "ALIGNERS.com", "aligners.ru:443"]) expect(isHostAllowed(host, configured), host).toBe(true);
  });
  it("refuses every other host in strict mode, loopback included", () => {
    for (const host of ["evil.example", "aligners.ru.evil.example", "evil.example:443", "localhost:3000", "127.0.0.1", "", null]) {
      expect(isHostAllowed(host, configured), String(host)).toBe(false);
    }
  });
  it("answers this machine's loopback names outside strict mode, and nothing else unlisted", () => {
    const development = { ...configured, strict: false };
    for (const host of ["localhost:3000", "127.0.0.1:3210", "[::1]:3000", "shop.localhost"]) expect(isHostAllowed(host, development), host).toBe(true);
    for (const host of ["evil.example", "localhost.evil.example"]) expect(isHostAllowed(host, development), host).toBe(false);
  });
});
