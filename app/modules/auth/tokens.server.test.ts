import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { openPassphraseToken, sealPassphraseToken } from "./tokens.server";

// Written by `openssl enc -aes-256-cbc -md md5 -salt -pass pass:link-secret -base64`: the format the
// e-mail-link strategy writes its tokens in.
const TOKEN = "U2FsdGVkX19LZnnRtfRQbhc6nTRzM7W/VC/u/ocu/mkG/l/H9BJUeVTsexMuwxNK/fEzLZ6ws1G7+ZnEQ3BCHAbeu/onfeY2RCK/sjI9jC4=";

describe("a sign-in link's token", () => {
  it("opens with its passphrase", () => {
    expect(JSON.parse(openPassphraseToken(TOKEN, "link-secret") ?? "null")).toEqual({ e: "doctor@clinic.test", f: { link: "abc" }, c: 1795000000000 });
  });

  it("opens to nothing with another passphrase, cut short or forged", () => {
    expect(openPassphraseToken(TOKEN, "another-secret")).toBeNull();
    expect(openPassphraseToken(TOKEN.slice(0, 40), "link-secret")).toBeNull();
    expect(openPassphraseToken("not a token at all", "link-secret")).toBeNull();
    expect(openPassphraseToken(Buffer.from("Salted__12345678").toString("base64"), "link-secret")).toBeNull();
  });
});

describe("sealing a sign-in link's token", () => {
  const payload = JSON.stringify({ e: "doctor@clinic.test", f: { link: "abc" }, c: 1795000000000 });

  it("writes OpenSSL's passphrase format with a fresh salt, which opens again", () => {
    const first = sealPassphraseToken(payload, "link-secret");
    const second = sealPassphraseToken(payload, "link-secret");
    expect(first.startsWith("U2FsdGVkX1")).toBe(true); // "Salted__", base64
    expect(first).not.toBe(second);
    expect(openPassphraseToken(first, "link-secret")).toBe(payload);
    expect(openPassphraseToken(first, "another-secret")).toBeNull();
  });

  it("is opened by OpenSSL itself, as the tokens crypto-js wrote were", () => {
    const sealed = sealPassphraseToken(payload, "link-secret");
    const opened = execFileSync("openssl", ["enc", "-d", "-aes-256-cbc", "-md", "md5", "-A", "-a", "-pass", "pass:link-secret"], { input: sealed, encoding: "utf8" });
    expect(opened).toBe(payload);
  });
});
